import type { V1CustomResourceConversion } from '@kubernetes/client-node';
import { isInvalid, isNotFound } from '../client/api-error.ts';
import type { Client } from '../client/client.ts';
import type { Kind } from '../client/kind.ts';
import { CustomResourceDefinitionKind } from '../client/kinds.ts';
import { jsonPatch, mergePatch } from '../client/patch.ts';
import type { Json } from '../api/json.ts';
import type { WebhookTarget } from './local-webhook-configuration.ts';
import { CONVERT_PATH } from './webhook-paths.ts';

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
  const patch = mergePatch({
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
  });
  const installed: LocalConversion[] = [];
  try {
    for (const crd of new Set(kinds.map(crdName))) {
      const found = await client.direct().get(CustomResourceDefinitionKind, { name: crd });
      if (!found) {
        throw new Error(`the CRD ${crd} is not installed: run \`npm run install-crds\` first`);
      }
      await client.patch(found, patch);
      installed.push({ crd, url, previous: found.spec.conversion });
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
  for (const { crd, url, previous } of installed) {
    const target = {
      apiVersion: CustomResourceDefinitionKind.apiVersion,
      kind: 'CustomResourceDefinition',
      metadata: { name: crd },
    };
    const patch = jsonPatch([
      { op: 'test', path: '/spec/conversion/webhook/clientConfig/url', value: url },
      { op: 'replace', path: '/spec/conversion', value: previous ?? { strategy: 'None' } },
    ]);
    // Invalid: the test failed, the CRD is not this process's any more; NotFound: it was deleted.
    await client.patch(target, patch).catch((err: unknown) => {
      if (!isInvalid(err) && !isNotFound(err)) throw err;
    });
  }
}

/** `webapps.demo.example.org`: the name of the CRD serving `kind`. */
function crdName(kind: Kind): string {
  return `${kind.plural}.${kind.group}`;
}
