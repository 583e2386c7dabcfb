import type { KubernetesObject, V1Condition } from '@kubernetes/client-node';
import { defineKind } from '../../../src/runtime/client/kind.ts';

/** What a WebApp asks for. */
export interface WebAppSpec {
  image: string;
  /** Default: 1. */
  replicas?: number;
  port: number;
}

/** What the operator observed. */
export interface WebAppStatus {
  readyReplicas?: number;
  observedGeneration?: number;
  conditions?: V1Condition[];
}

/** The custom resource of ../crd, as `create api --kind WebApp` types it. */
export interface WebApp extends KubernetesObject {
  spec: WebAppSpec;
  status?: WebAppStatus;
}

export const WebAppKind = defineKind<WebApp>({
  apiVersion: 'demo.example.org/v1',
  kind: 'WebApp',
  plural: 'webapps',
  namespaced: true,
});
