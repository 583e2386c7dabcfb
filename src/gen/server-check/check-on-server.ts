import type { Environment } from '../../envtest/index.ts';
import { TsoperatorError } from '../../errors.ts';
import type { Diagnostic } from '../../markers/index.ts';
import { transportFor } from '../../runtime/client/transport.ts';
import { KubeconfigError } from '../../runtime/config/kubeconfig-file.ts';
import { loadRestConfig } from '../../runtime/config/load-rest-config.ts';
import type { RestConfig } from '../../runtime/config/rest-config.ts';
import type { SchemaSites } from '../crd/schema-site.ts';
import type { ManifestFile } from '../manifest-generator.ts';
import { serverDryRun } from './server-dry-run.ts';

/**
 * Which API server dry-runs the manifests: a control plane started for the check from the envtest
 * binaries (nothing to set up, nothing left behind), or the current kubeconfig's cluster (its
 * Kubernetes version, its admission). Default: envtest.
 */
export type ServerTarget = 'envtest' | 'cluster';

export interface CheckOnServerOptions {
  readonly files: readonly ManifestFile[];
  readonly schemaSites: ReadonlyMap<string, SchemaSites>;
  readonly target: ServerTarget;
  /** For `cluster`: where to find the kubeconfig. Default: `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
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

function dryRunOn(config: RestConfig, options: CheckOnServerOptions): Promise<Diagnostic[]> {
  const transport = transportFor(config, { requestTimeoutMs: 30_000 });
  return serverDryRun({ files: options.files, transport, schemaSites: options.schemaSites });
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
