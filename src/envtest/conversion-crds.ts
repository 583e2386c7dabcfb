import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { loadAll } from 'js-yaml';
import { pointAtWebhookServer } from '../runtime/webhook/local-webhook-configuration.ts';
import { CONVERT_PATH } from '../runtime/webhook/webhook-paths.ts';
import type { Environment } from './environment.ts';
import { localTarget, type LocalWebhookServer } from './webhooks.ts';

/**
 * Installs the CRDs of the YAML files in `crdDir`, each with more than one version converting
 * through the local `server`'s `/convert`, as config/crd/patches/webhook_in_<plural>.yaml makes it
 * call the in-cluster Service. A single-version CRD needs no conversion and is installed as it is.
 *
 * @example
 * ```ts
 * const { url } = await mgr.webhookServer.start();
 * await installConversionCrds(env, 'config/crd/bases', { url, caBundle: mgr.webhookServer.caBundle ?? '' });
 * ```
 */
export async function installConversionCrds(
  env: Pick<Environment, 'installCrds'>,
  crdDir: string,
  server: LocalWebhookServer,
): Promise<V1CustomResourceDefinition[]> {
  const target = localTarget(server);
  const crds = (await readCrds(crdDir)).map((crd) =>
    pointAtWebhookServer(crd.spec.versions.length > 1 ? withConversionWebhook(crd) : crd, target),
  );
  const dir = await mkdtemp(join(tmpdir(), 'tsoperator-conversion-crds-'));
  try {
    // JSON documents are YAML documents: installCrds reads them as it reads the generated files.
    await writeFile(join(dir, 'crds.yaml'), crds.map((crd) => JSON.stringify(crd)).join('\n---\n'));
    return await env.installCrds([dir]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function withConversionWebhook(crd: V1CustomResourceDefinition): V1CustomResourceDefinition {
  return {
    ...crd,
    spec: {
      ...crd.spec,
      conversion: {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { service: { name: 'webhook-service', namespace: 'system', path: CONVERT_PATH } },
          conversionReviewVersions: ['v1'],
        },
      },
    },
  };
}

async function readCrds(dir: string): Promise<V1CustomResourceDefinition[]> {
  const files = (await readdir(dir)).filter((f) => ['.yaml', '.yml', '.json'].includes(extname(f))).sort();
  const documents = await Promise.all(
    files.map(async (file) => loadAll(await readFile(join(dir, file), 'utf8')) as unknown[]),
  );
  return documents
    .flat()
    .filter(
      (d): d is V1CustomResourceDefinition =>
        (d as { kind?: string } | null)?.kind === 'CustomResourceDefinition',
    );
}
