import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { pointAtWebhookServer } from '../runtime/webhook/local-webhook-configuration.ts';
import { CONVERT_PATH } from '../runtime/webhook/webhook-paths.ts';
import { applyCrds, readCrds } from './crds.ts';
import type { Environment } from './environment.ts';
import { localTarget, type LocalWebhookServer } from './webhooks.ts';

/**
 * Installs the CRDs of the YAML files under `crdDir`, each with more than one version converting
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
  env: Pick<Environment, 'kubeConfig'>,
  crdDir: string,
  server: LocalWebhookServer,
): Promise<V1CustomResourceDefinition[]> {
  const target = localTarget(server);
  const crds = (await readCrds(crdDir)).map((crd) =>
    pointAtWebhookServer(crd.spec.versions.length > 1 ? withConversionWebhook(crd) : crd, target),
  );
  return applyCrds(env.kubeConfig, crds);
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
