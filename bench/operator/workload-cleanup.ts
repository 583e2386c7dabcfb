import { ApiError } from '../../src/runtime/client/api-error.ts';
import type { Client } from '../../src/runtime/client/client.ts';
import type { Kind } from '../../src/runtime/client/kind.ts';
import { DeploymentKind, ServiceKind } from '../../src/runtime/client/kinds.ts';
import { mergePatch } from '../../src/runtime/client/patch.ts';
import { resourcePath } from '../../src/runtime/client/resource-path.ts';
import type { Transport } from '../../src/runtime/client/transport.ts';
import { WebAppKind } from './ts/webapp.ts';

const KINDS: readonly Kind[] = [WebAppKind, DeploymentKind, ServiceKind];

/**
 * Deletes a finished contender's WebApps, Deployments and Services, and waits until they are
 * gone, so the next contender's caches (which watch all namespaces) start from the same empty
 * cluster. Collections are deleted by hand: with no kube-controller-manager, neither garbage
 * collection nor namespace deletion would remove them. Finalizers left by an operator that has
 * stopped are removed, as no one is left to run them.
 */
export async function deleteWorkload(transport: Transport, client: Client, namespace: string): Promise<void> {
  for (const kind of KINDS) await deleteCollection(transport, kind, namespace);
  for (const app of await client.listAll(WebAppKind, { namespace })) {
    if (!app.metadata?.finalizers?.length) continue;
    const named = { ...app, apiVersion: WebAppKind.apiVersion, kind: WebAppKind.kind };
    await client.patch(named, mergePatch({ metadata: { finalizers: null } }));
  }
  for (const kind of KINDS) {
    for (let polls = 1; (await client.list(kind, { namespace, limit: 1 })).items.length > 0; polls++) {
      // A collection of 10,000 takes the API server past its own 60 s deadline: it answers 504,
      // and may stop with thousands left (seen with 10,000 Services), so it is asked again.
      if (polls % REDELETE_POLLS === 0) await deleteCollection(transport, kind, namespace);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Polls of a kind still not empty before its collection is deleted again: 10 s. */
const REDELETE_POLLS = 50;

async function deleteCollection(transport: Transport, kind: Kind, namespace: string): Promise<void> {
  await transport.request({ method: 'DELETE', path: resourcePath(kind, namespace) }).catch((err: unknown) => {
    if (!(err instanceof ApiError && err.code === 504)) throw err;
  });
}
