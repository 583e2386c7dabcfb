import { readFile } from 'node:fs/promises';
import type { KubernetesObject } from '@kubernetes/client-node';
import { loadAll } from 'js-yaml';
import { TsoperatorError } from '../errors.ts';
import { isAlreadyExists } from '../runtime/client/api-error.ts';
import { newClient, type Client } from '../runtime/client/client.ts';
import { kindRegistry } from '../runtime/client/kind.ts';
import '../runtime/client/kinds.ts';
import { pointAtWebhookServer, type WebhookTarget } from '../runtime/webhook/local-webhook-configuration.ts';
import type { Environment } from './environment.ts';

/** A webhook server running outside the cluster: where it listens and the CA of its certificate. */
export interface LocalWebhookServer {
  /** `https://127.0.0.1:9443`: the webhooks' paths are appended to it. */
  readonly url: string;
  /** The PEM certificate of the CA that signed the server's certificate. */
  readonly caBundle: string;
}

const WEBHOOK_CONFIGURATION_KINDS = new Set([
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
]);

/**
 * Creates (or replaces) the webhook configurations of a generated manifests file, each webhook
 * calling the local `server` at its path instead of the in-cluster Service, and trusting its CA.
 * The API server picks them up within a moment: probe before counting on them.
 *
 * @example
 * ```ts
 * const { url } = await mgr.webhookServer.start();
 * await installWebhooks(env, 'config/webhook/manifests.yaml', { url, caBundle: mgr.webhookServer.caBundle ?? '' });
 * ```
 */
export async function installWebhooks(
  env: Pick<Environment, 'kubeConfig'>,
  manifestsPath: string,
  server: LocalWebhookServer,
): Promise<KubernetesObject[]> {
  if (server.caBundle === '') {
    throw new TsoperatorError(
      'installWebhooks needs the CA of the webhook server: start it without a certificate folder, so that it generates one',
    );
  }
  const target = localTarget(server);
  const manifests = await readWebhookConfigurations(manifestsPath);
  const client = newClient({ kubeConfig: env.kubeConfig });
  const installed: KubernetesObject[] = [];
  for (const manifest of manifests) {
    installed.push(await createOrReplace(client, pointAtWebhookServer(manifest, target)));
  }
  return installed;
}

/** Where the webhooks of a manifest call `server`: the URL of each path, and its CA in base64. */
export function localTarget(server: LocalWebhookServer): WebhookTarget {
  return {
    clientConfig: (path: string) => ({
      url: `${server.url}${path}`,
      caBundle: Buffer.from(server.caBundle).toString('base64'),
    }),
  };
}

async function readWebhookConfigurations(path: string): Promise<KubernetesObject[]> {
  const text = await readFile(path, 'utf8').catch((err: unknown) => {
    throw new TsoperatorError(
      `cannot read the webhook manifests ${path}: run \`tsoperator manifests\` first`,
      { cause: err },
    );
  });
  const documents = loadAll(text) as (KubernetesObject | null)[];
  return documents.filter(
    (d): d is KubernetesObject => d !== null && WEBHOOK_CONFIGURATION_KINDS.has(d.kind ?? ''),
  );
}

async function createOrReplace(client: Client, manifest: KubernetesObject): Promise<KubernetesObject> {
  try {
    return await client.create(manifest);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const kind = kindRegistry.kindOf(manifest);
    const existing = await client.get(kind, { name: manifest.metadata?.name ?? '' });
    const resourceVersion = existing?.metadata?.resourceVersion;
    return client.update({ ...manifest, metadata: { ...manifest.metadata, resourceVersion } });
  }
}
