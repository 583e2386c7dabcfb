import type { Condition, ObjectMeta } from '../../../src/runtime/api/types.ts';
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
  conditions?: Condition[];
}

/** The custom resource of ../crd, as `create api --kind WebApp` types it. */
export interface WebApp {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: WebAppSpec;
  status?: WebAppStatus;
}

export const WebAppKind = defineKind<WebApp>({
  apiVersion: 'demo.example.org/v1',
  kind: 'WebApp',
  plural: 'webapps',
  namespaced: true,
});
