import type { Environment } from '../../envtest/index.ts';
import { TsoperatorError } from '../../errors.ts';
import type { Diagnostic } from '../../markers/index.ts';
import { transportFor } from '../../runtime/client/transport.ts';
import { KubeconfigError } from '../../runtime/config/kubeconfig-file.ts';
import { loadRestConfig } from '../../runtime/config/load-rest-config.ts';
import type { RestConfig } from '../../runtime/config/rest-config.ts';
import type { SchemaSites } from '../crd/schema-site.ts';
import type { ManifestFile } from '../manifest-generator.ts';
import { serverCheckFailure } from './server-check-failure.ts';
import { serverDryRun } from './server-dry-run.ts';

/**
 * Which API server dry-runs the manifests: a control plane started for the check from the envtest
 * binaries (nothing to set up, nothing left behind), or the current kubeconfig's cluster (its
 * Kubernetes version, its admission). Default: envtest.
 */
export type ServerTarget = 'envtest' | 'cluster';

/** How long the check waits for each answer. */
const REQUEST_TIMEOUT_MS = 30_000;

export interface CheckOnServerOptions {
  readonly files: readonly ManifestFile[];
  readonly schemaSites: ReadonlyMap<string, SchemaSites>;
  readonly target: ServerTarget;
  /** For `cluster`: where to find the kubeconfig. Default: `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** How long to wait for each answer. Default: 30 s. */
  readonly requestTimeoutMs?: number;
}

/** What the API server refuses of the generated manifests; an empty list when it accepts them all. */
export async function checkOnServer(options: CheckOnServerOptions): Promise<Diagnostic[]> {
  if (options.target === 'cluster') return dryRunOn(clusterConfig(options.env), options);
  await using env = await startControlPlane();
  // Awaited here, so that the control plane stops only once the dry runs are done.
  return await dryRunOn(loadRestConfig({ kubeconfig: env.admin.kubeconfigPath }), options);
}

/**
 * Loaded only when needed. Kept out of the function that holds `await using`: tsc leaves the `.ts`
 * of a dynamic import unrewritten inside the block it writes for `await using`, and the built CLI
 * would then look for a file that does not exist.
 */
async function startControlPlane(): Promise<Environment> {
  const { startEnvironment } = await import('../../envtest/index.ts');
  return startEnvironment();
}

/** The dry runs; a failure to ask (unreachable, refused credentials, not an API server) is one line. */
async function dryRunOn(config: RestConfig, options: CheckOnServerOptions): Promise<Diagnostic[]> {
  const requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const transport = transportFor(config, { requestTimeoutMs });
  try {
    return await serverDryRun({ files: options.files, transport, schemaSites: options.schemaSites });
  } catch (err) {
    throw serverCheckFailure(err, config.server, options.target, requestTimeoutMs / 1000) ?? err;
  }
}

function clusterConfig(env: NodeJS.ProcessEnv | undefined): RestConfig {
  try {
    return loadRestConfig(env === undefined ? {} : { env });
  } catch (err) {
    if (err instanceof KubeconfigError)
      throw new TsoperatorError(`--server-dry-run=cluster: ${err.message}`, { cause: err });
    throw err;
  }
}
