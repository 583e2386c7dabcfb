import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeConfig, V1CustomResourceDefinition } from '@kubernetes/client-node';
import { newClient, type Client } from '../runtime/client/client.ts';
import { defineKind, KindRegistry } from '../runtime/client/kind.ts';
import { CustomResourceDefinitionKind } from '../runtime/client/kinds.ts';
import { isAlreadyExists } from '../runtime/client/api-error.ts';
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
  return applyCrds(kc, crds, timeoutMs);
}

/** Creates (or replaces) these CRDs and waits until each is Established and served. */
export async function applyCrds(
  kc: KubeConfig,
  crds: readonly V1CustomResourceDefinition[],
  timeoutMs = 30_000,
): Promise<V1CustomResourceDefinition[]> {
  // The runtime client sends objects as they are; client-node's typed APIs would drop the
  // x-kubernetes-* schema keys they do not model, and the API server would refuse the CRD.
  const client = newClient({ kubeConfig: kc });
  for (const crd of crds) await createOrReplace(client, crd);
  await Promise.all(crds.map((crd) => waitEstablished(client, crd.metadata?.name ?? '', timeoutMs)));
  await Promise.all(crds.map((crd) => waitServed(client, crd, timeoutMs)));
  return [...crds];
}

/** The CRDs in a YAML file, or in the YAML files of a folder and its subfolders. */
export async function readCrds(path: string): Promise<V1CustomResourceDefinition[]> {
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
  const docs = loadAll(await readFile(path, 'utf8'));
  return docs.filter(
    (d): d is V1CustomResourceDefinition =>
      (d as { kind?: string } | null)?.kind === 'CustomResourceDefinition',
  );
}

function isYamlOrDir(path: string): boolean {
  const ext = extname(path);
  return ext === '' || ext === '.yaml' || ext === '.yml' || ext === '.json';
}

async function createOrReplace(client: Client, crd: V1CustomResourceDefinition): Promise<void> {
  const body = { ...crd, apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
  try {
    await client.create(body);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const existing = await client.get(CustomResourceDefinitionKind, { name: crd.metadata?.name ?? '' });
    await client.update({
      ...body,
      metadata: { ...crd.metadata, resourceVersion: existing?.metadata?.resourceVersion },
    });
  }
}

async function waitEstablished(client: Client, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const crd = await client.get(CustomResourceDefinitionKind, { name });
    const established = crd?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
    if (established) return;
    await sleep(50);
  }
  throw new TsoperatorError(`CRD ${name} was not Established within ${timeoutMs / 1000} s.`);
}

/** Established is set before every API server path serves the kind; list each version until it answers. */
async function waitServed(client: Client, crd: V1CustomResourceDefinition, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const version of crd.spec.versions.filter((v) => v.served)) {
    // A private registry: these kinds exist only for this probe.
    const kind = defineKind(
      {
        apiVersion: `${crd.spec.group}/${version.name}`,
        kind: crd.spec.names.kind,
        plural: crd.spec.names.plural,
        namespaced: crd.spec.scope === 'Namespaced',
      },
      new KindRegistry(),
    );
    for (;;) {
      try {
        await client.list(kind, { limit: 1 });
        break;
      } catch (err) {
        if (Date.now() > deadline) {
          throw new TsoperatorError(
            `${crd.spec.names.plural}.${crd.spec.group}/${version.name} was not served within ${timeoutMs / 1000} s (${String(err)}).`,
          );
        }
        await sleep(50);
      }
    }
  }
}
