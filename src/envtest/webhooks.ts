import { TsoperatorError } from '../errors.ts';
import type { KubeObject } from '../runtime/api/kube-object.ts';
import { newClient } from '../runtime/client/client.ts';
import { installLocalWebhooks } from '../runtime/webhook/install-local-webhooks.ts';
import type { WebhookTarget } from '../runtime/webhook/local-webhook-configuration.ts';
import type { Environment } from './environment.ts';

/** A webhook server running outside the cluster: where it listens and the CA of its certificate. */
export interface LocalWebhookServer {
  /** `https://127.0.0.1:9443`: the webhooks' paths are appended to it. */
  readonly url: string;
  /** The PEM certificate of the CA that signed the server's certificate. */
  readonly caBundle: string;
  /**
   * The paths it serves (`mgr.webhookServer.paths`): webhooks at other paths are not installed, as
   * the API server would call them and fail. Default: every webhook of the manifests.
   */
  readonly paths?: readonly string[];
}

/**
 * Applies (server-side, taking them over) the webhook configurations of a generated manifests file, each webhook
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
): Promise<KubeObject[]> {
  if (server.caBundle === '') {
    throw new TsoperatorError(
      'installWebhooks needs the CA bundle of the webhook server, known once it has started: await `mgr.webhookServer.start()` first',
    );
  }
  // The same step as `npm start --webhook-install-local`, from outside the manager process.
  return installLocalWebhooks(newClient({ kubeConfig: env.kubeConfig }), localTarget(server), manifestsPath);
}

/** Where the webhooks of a manifest call `server`: the URL of each path, and its CA in base64. */
export function localTarget(server: LocalWebhookServer): WebhookTarget {
  return {
    clientConfig: (path: string) => ({
      url: `${server.url}${path}`,
      caBundle: Buffer.from(server.caBundle).toString('base64'),
    }),
    ...(server.paths === undefined ? {} : { paths: server.paths }),
  };
}
