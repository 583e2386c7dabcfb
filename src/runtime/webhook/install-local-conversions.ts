import type { V1CustomResourceConversion } from '@kubernetes/client-node';
import { isInvalid, isNotFound } from '../client/api-error.ts';
import type { Client } from '../client/client.ts';
import type { Kind } from '../client/kind.ts';
import { CustomResourceDefinitionKind } from '../client/kinds.ts';
import { jsonPatch, mergePatch } from '../client/patch.ts';
import type { Json } from '../api/json.ts';
import type { WebhookTarget } from './local-webhook-configuration.ts';
import { CONVERT_PATH } from './webhook-paths.ts';

/**
 * Where a CRD pointed at a local process keeps the conversion it had before (JSON): written by the
 * first process to point it, kept by the next, removed when one puts it back. A process that died
 * without putting it back leaves it there for the next, which then restores the original rather
 * than the dead process's URL.
 */
export const CONVERSION_BEFORE_LOCAL = 'typescript.tsoperator.io/conversion-before-local';

/** A CRD pointed at this process: what its conversion was before, to put back at the end. */
export interface LocalConversion {
  /** `webapps.demo.example.org`. */
  readonly crd: string;
  /** The URL the CRD calls now. */
  readonly url: string;
  /** Its `spec.conversion` before; undefined when it had none (the API server's default, None). */
  readonly previous: Json<V1CustomResourceConversion> | undefined;
}

/**
 * For `npm start` against a local API server: makes the installed CRD of each kind in `kinds` (the
 * kinds this process converts) call `server`'s `/convert` and trust its CA, in place of the
 * in-cluster Service `npm run install-crds` names. The CRDs on the API server are patched, not the
 * files. A merge patch, since it also has to remove the Service: a clientConfig names a URL or a
 * Service, never both, and server-side apply cannot remove a field another manager set. Returns
 * what {@link restoreLocalConversions} needs to put the CRDs back.
 */
export async function installLocalConversions(
  client: Client,
  server: WebhookTarget,
  kinds: readonly Kind[],
): Promise<LocalConversion[]> {
  if (kinds.length === 0) return [];
  const { url, caBundle } = server.clientConfig(CONVERT_PATH);
  const installed: LocalConversion[] = [];
  try {
    for (const crd of new Set(kinds.map(crdName))) {
      const found = await client.direct().get(CustomResourceDefinitionKind, { name: crd });
      if (!found) {
        throw new Error(`the CRD ${crd} is not installed: run \`npm run install-crds\` first`);
      }
      const kept = found.metadata?.annotations?.[CONVERSION_BEFORE_LOCAL];
      const previous = kept === undefined ? found.spec.conversion : conversionFrom(kept);
      await client.patch(
        found,
        mergePatch({
          metadata: { annotations: { [CONVERSION_BEFORE_LOCAL]: JSON.stringify(previous ?? null) } },
          spec: {
            conversion: {
              strategy: 'Webhook',
              webhook: {
                clientConfig: { service: null, url, caBundle },
                // The only ConversionReview version the webhook server reads.
                conversionReviewVersions: ['v1'],
              },
            },
          },
        }),
      );
      installed.push({ crd, url, previous });
    }
  } catch (err) {
    // The process is not going to run: the CRDs it pointed at itself go back as they were.
    await restoreLocalConversions(client, installed);
    throw err;
  }
  return installed;
}

/**
 * Puts back the conversion each CRD of `installed` had, unless it calls another URL by now (a
 * second process took it over), so that `npm run install-crds` applies again: its Service next to
 * the URL this process set would be refused, as a clientConfig names one or the other.
 */
export async function restoreLocalConversions(
  client: Client,
  installed: readonly LocalConversion[],
): Promise<void> {
  const failed: { crd: string; err: unknown }[] = [];
  for (const { crd, url, previous } of installed) {
    const target = {
      apiVersion: CustomResourceDefinitionKind.apiVersion,
      kind: 'CustomResourceDefinition',
      metadata: { name: crd },
    };
    const patch = jsonPatch([
      { op: 'test', path: '/spec/conversion/webhook/clientConfig/url', value: url },
      { op: 'replace', path: '/spec/conversion', value: previous ?? { strategy: 'None' } },
      { op: 'remove', path: `/metadata/annotations/${CONVERSION_BEFORE_LOCAL.replace('/', '~1')}` },
    ]);
    // Invalid: the test failed, the CRD is not this process's any more (the one that took it over
    // puts it back, from the annotation); NotFound: it was deleted. Each CRD is tried, whatever
    // another one answered.
    await client.patch(target, patch).catch((err: unknown) => {
      if (!isInvalid(err) && !isNotFound(err)) failed.push({ crd, err });
    });
  }
  if (failed.length > 0) {
    const names = failed.map((f) => f.crd).join(', ');
    throw new Error(
      `could not put back the conversion of ${names}, which still calls this process: start and stop it with webhookInstallLocal again to put it back`,
      {
        cause: failed[0]?.err,
      },
    );
  }
}

/** The conversion kept in {@link CONVERSION_BEFORE_LOCAL}; null there stands for none. */
function conversionFrom(kept: string): Json<V1CustomResourceConversion> | undefined {
  return (JSON.parse(kept) as Json<V1CustomResourceConversion> | null) ?? undefined;
}

/** `webapps.demo.example.org`: the name of the CRD serving `kind`. */
function crdName(kind: Kind): string {
  return `${kind.plural}.${kind.group}`;
}
