import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { loadAll } from 'js-yaml';
import { TsoperatorError } from '../errors.ts';

/**
 * Creates (or replaces) every CustomResourceDefinition found in the YAML files under `paths` and
 * waits until each is Established, so tests can create objects of those kinds at once.
 */
export async function installCrds(
  kc: KubeConfig,
  paths: readonly string[],
  timeoutMs = 30_000,
): Promise<V1CustomResourceDefinition[]> {
  const crds: V1CustomResourceDefinition[] = [];
  for (const path of paths) crds.push(...(await readCrds(path)));
  const api = kc.makeApiClient(ApiextensionsV1Api);
  for (const crd of crds) await createOrReplace(api, crd);
  await Promise.all(crds.map((crd) => waitEstablished(api, crd.metadata?.name ?? '', timeoutMs)));
  const objects = kc.makeApiClient(CustomObjectsApi);
  await Promise.all(crds.map((crd) => waitServed(objects, crd, timeoutMs)));
  return crds;
}

async function readCrds(path: string): Promise<V1CustomResourceDefinition[]> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new TsoperatorError(`CRD path ${path} does not exist.`);
  if (info.isDirectory()) {
    const entries = (await readdir(path)).sort();
    const nested = await Promise.all(
      entries
        .map((e) => join(path, e))
        .filter(isYamlOrDir)
        .map(readCrds),
    );
    return nested.flat();
  }
  if (!['.yaml', '.yml', '.json'].includes(extname(path))) return [];
  const docs = loadAll(await readFile(path, 'utf8')) as unknown[];
  return docs.filter(
    (d): d is V1CustomResourceDefinition =>
      (d as { kind?: string } | null)?.kind === 'CustomResourceDefinition',
  );
}

function isYamlOrDir(path: string): boolean {
  const ext = extname(path);
  return ext === '' || ext === '.yaml' || ext === '.yml' || ext === '.json';
}

async function createOrReplace(api: ApiextensionsV1Api, crd: V1CustomResourceDefinition): Promise<void> {
  const name = crd.metadata?.name ?? '';
  try {
    await api.createCustomResourceDefinition({ body: crd });
  } catch (err) {
    if ((err as { code?: number }).code !== 409) throw err;
    const existing = await api.readCustomResourceDefinition({ name });
    await api.replaceCustomResourceDefinition({
      name,
      body: {
        ...crd,
        metadata: { ...crd.metadata, name, resourceVersion: existing.metadata?.resourceVersion },
      },
    });
  }
}

async function waitEstablished(api: ApiextensionsV1Api, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const crd = await api.readCustomResourceDefinition({ name });
    const established = crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
    if (established) return;
    await sleep(50);
  }
  throw new TsoperatorError(`CRD ${name} was not Established within ${timeoutMs / 1000} s.`);
}

/** Established is set before every API server path serves the kind; list each version until it answers. */
async function waitServed(
  api: CustomObjectsApi,
  crd: V1CustomResourceDefinition,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const version of crd.spec.versions.filter((v) => v.served)) {
    for (;;) {
      try {
        await api.listClusterCustomObject({
          group: crd.spec.group,
          version: version.name,
          plural: crd.spec.names.plural,
          limit: 1,
        });
        break;
      } catch (err) {
        if (Date.now() > deadline)
          throw new TsoperatorError(
            `${crd.spec.names.plural}.${crd.spec.group}/${version.name} was not served within ${timeoutMs / 1000} s (${String(err)}).`,
          );
        await sleep(50);
      }
    }
  }
}
