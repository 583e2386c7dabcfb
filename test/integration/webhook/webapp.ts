import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../../../src/runtime/api/kube-object.ts';
import { loadAll } from 'js-yaml';
import type { Environment } from '../../../src/envtest/index.ts';
import { defineKind } from '../../../src/runtime/client/kind.ts';
import type { SpokeConversion } from '../../../src/runtime/webhook/conversion.ts';
import type { CustomDefaulter } from '../../../src/runtime/webhook/defaulter.ts';
import {
  pointAtWebhookServer,
  type WebhookTarget,
} from '../../../src/runtime/webhook/local-webhook-configuration.ts';
import { ValidationError } from '../../../src/runtime/webhook/validation-error.ts';
import type { CustomValidator } from '../../../src/runtime/webhook/validator.ts';

/** The hub version. */
export interface WebApp extends KubeObject {
  spec?: { replicas?: number; image?: string; ports?: number[]; env?: Record<string, string> };
}

/** A spoke: `replicas` is `instances`, image and ports moved into `container`, env is a list, and `strategy` is new. */
export interface WebAppV2 extends KubeObject {
  spec?: {
    instances?: number;
    container?: { image?: string; ports?: { port: number }[] };
    env?: { name: string; value: string }[];
    strategy?: 'RollingUpdate' | 'Recreate';
  };
}

export const WebAppKind = defineKind<WebApp>({
  apiVersion: 'webhook.tsoperator.dev/v1',
  kind: 'WebApp',
  plural: 'webapps',
  namespaced: true,
});

export const WebAppV2Kind = defineKind<WebAppV2>({
  apiVersion: 'webhook.tsoperator.dev/v2',
  kind: 'WebApp',
  plural: 'webapps',
  namespaced: true,
});

export const webappsCrd = join(import.meta.dirname, 'testdata', 'webapps.yaml');
export const webhookManifests = join(import.meta.dirname, 'testdata', 'manifests.yaml');

export const DEFAULT_IMAGE = 'nginx:1.27';

export const webAppDefaulter: CustomDefaulter<WebApp> = {
  default(app) {
    app.spec ??= {};
    app.spec.replicas ??= 1;
    app.spec.image ??= DEFAULT_IMAGE;
  },
};

export const webAppValidator: CustomValidator<WebApp> = {
  validateCreate: (app) => validate(app),
  validateUpdate: (_old, app) => validate(app),
};

function validate(app: WebApp): string[] {
  const replicas = app.spec?.replicas ?? 0;
  if (replicas > 10)
    throw new ValidationError([{ field: 'spec.replicas', value: replicas, message: 'must be at most 10' }]);
  return replicas > 5 ? [`${replicas} replicas: more than 5 needs a capacity review`] : [];
}

/** v1 has no `strategy`: it is kept in this annotation, so v2 → v1 → v2 loses nothing. */
const STRATEGY_ANNOTATION = 'webhook.tsoperator.dev/strategy';

export const webAppV2Conversion: SpokeConversion<WebApp, WebAppV2> = {
  convertTo({ spec = {}, ...obj }) {
    const annotations = { ...obj.metadata?.annotations };
    if (spec.strategy) annotations[STRATEGY_ANNOTATION] = spec.strategy;
    return {
      ...obj,
      metadata: withAnnotations(obj.metadata, annotations),
      spec: defined({
        replicas: spec.instances,
        image: spec.container?.image,
        ports: spec.container?.ports?.map((p) => p.port),
        env: spec.env && Object.fromEntries(spec.env.map((e) => [e.name, e.value])),
      }),
    };
  },
  convertFrom({ spec = {}, ...obj }) {
    const { [STRATEGY_ANNOTATION]: strategy, ...annotations } = obj.metadata?.annotations ?? {};
    const container = defined({ image: spec.image, ports: spec.ports?.map((port) => ({ port })) });
    return {
      ...obj,
      metadata: withAnnotations(obj.metadata, annotations),
      spec: defined({
        instances: spec.replicas,
        container: Object.keys(container).length ? container : undefined,
        // A map has no order: the list is kept sorted by name.
        env:
          spec.env &&
          Object.entries(spec.env)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([name, value]) => ({ name, value })),
        strategy: strategy as 'RollingUpdate' | 'Recreate' | undefined,
      }),
    };
  },
};

function withAnnotations(
  metadata: KubeObject['metadata'],
  annotations: Record<string, string>,
): KubeObject['metadata'] {
  const rest = { ...metadata };
  delete rest.annotations;
  return Object.keys(annotations).length ? { ...rest, annotations } : rest;
}

function defined<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

/** Reads the manifests of a testdata YAML file pointed at `target`, as `npm start` and envtest suites do. */
async function manifestsPointingAt(path: string, target: WebhookTarget): Promise<KubeObject[]> {
  const manifests = loadAll(await readFile(path, 'utf8')) as KubeObject[];
  return manifests.map((m) => pointAtWebhookServer(m, target));
}

/** Installs the WebApp CRD with its conversion webhook pointed at `target`. */
export async function installCrdPointingAt(env: Environment, target: WebhookTarget): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'webhook-crd-'));
  try {
    // JSON documents are YAML documents.
    const documents = (await manifestsPointingAt(webappsCrd, target)).map((m) => JSON.stringify(m));
    await writeFile(join(dir, 'webapps.yaml'), documents.join('\n---\n'));
    await env.installCrds([dir]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
