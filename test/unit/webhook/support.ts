import { request } from 'node:https';
import type { KubernetesObject } from '@kubernetes/client-node';
import { defineKind, KindRegistry } from '../../../src/runtime/client/kind.ts';
import type { WebhookServer } from '../../../src/runtime/webhook/webhook-server.ts';

export interface App extends KubernetesObject {
  spec?: { replicas?: number; image?: string; ports?: number[] };
}

export const AppKind = defineKind<App>(
  { apiVersion: 'demo.example.org/v1', kind: 'App', plural: 'apps', namespaced: true },
  new KindRegistry(),
);

/** Sends `body` (a string as is) to the server over TLS, trusting its generated CA. */
export function post(
  server: WebhookServer,
  path: string,
  body: unknown,
  contentType = 'application/json',
  method = 'POST',
): Promise<{ status: number; body: unknown }> {
  const url = new URL(path, server.url ?? 'https://not-started');
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, ca: server.caBundle, headers: { 'content-type': contentType } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as unknown) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

/** An AdmissionReview v1 of `operation` on an App. */
export function admissionReview(
  operation: 'CREATE' | 'UPDATE' | 'DELETE',
  objects: { object?: App; oldObject?: App },
): object {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'uid-1',
      kind: { group: 'demo.example.org', version: 'v1', kind: 'App' },
      resource: { group: 'demo.example.org', version: 'v1', resource: 'apps' },
      name: 'web',
      namespace: 'default',
      operation,
      userInfo: { username: 'admin' },
      ...objects,
    },
  };
}

export function app(spec: App['spec']): App {
  return {
    apiVersion: 'demo.example.org/v1',
    kind: 'App',
    metadata: { name: 'web', namespace: 'default' },
    spec,
  };
}
