import { readFile } from 'node:fs/promises';
import type { KubeObject } from '../api/kube-object.ts';
import { loadAll } from 'js-yaml';
import type { Client } from '../client/client.ts';
import { pointAtWebhookServer, type WebhookTarget } from './local-webhook-configuration.ts';

const CONFIGURATION_KINDS = new Set(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);

/**
 * For `npm start` against a local API server: applies the webhook configurations of a generated
 * manifests file (config/webhook/manifests.yaml) with every webhook calling this process's webhook
 * server and trusting the CA it generated, which exists only in this process. Server-side apply
 * with force: a rerun takes the configurations over from the last one. Returns them as applied.
 */
export async function installLocalWebhooks(
  client: Client,
  server: WebhookTarget,
  manifestsPath: string,
): Promise<KubeObject[]> {
  const text = await readFile(manifestsPath, 'utf8').catch((err: unknown) => {
    throw new Error(
      `cannot read the webhook manifests ${manifestsPath} (run \`tsoperator manifests\` first)`,
      { cause: err },
    );
  });
  const manifests = (loadAll(text) as (KubeObject | null)[]).filter(
    (m): m is KubeObject => m !== null && CONFIGURATION_KINDS.has(m.kind ?? ''),
  );
  const applied: KubeObject[] = [];
  for (const manifest of manifests)
    applied.push(await client.apply(pointAtWebhookServer(manifest, server), { force: true }));
  return applied;
}
