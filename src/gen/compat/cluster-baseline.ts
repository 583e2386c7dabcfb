import { TsoperatorError } from '../../errors.ts';
import { ApiError } from '../../runtime/client/api-error.ts';
import { transportFor } from '../../runtime/client/transport.ts';
import { KubeconfigError } from '../../runtime/config/kubeconfig-file.ts';
import { loadRestConfig } from '../../runtime/config/load-rest-config.ts';
import type { RestConfig } from '../../runtime/config/rest-config.ts';
import type { Baseline, ComparedCrd } from './compared-crd.ts';

const CRDS_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/**
 * `--against-cluster`: the CRDs of these names installed in the cluster of the current kubeconfig
 * (found as the operator finds it: KUBECONFIG, the pod's service account, ~/.kube/config). Read as
 * plain JSON: the cluster's object keeps every schema key and its `status.storedVersions`.
 */
export async function clusterBaseline(names: readonly string[], env?: NodeJS.ProcessEnv): Promise<Baseline> {
  const config = restConfig(env);
  const transport = transportFor(config, { requestTimeoutMs: 15_000 });
  const crds: ComparedCrd[] = [];
  for (const name of names) {
    try {
      crds.push(await transport.request<ComparedCrd>({ method: 'GET', path: `${CRDS_PATH}/${name}` }));
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) continue;
      const reason = err instanceof Error ? err.message : String(err);
      throw new TsoperatorError(
        `--against-cluster: cannot read the CRD ${name} from ${config.server} (${config.source}): ${reason}`,
        {
          cause: err,
        },
      );
    }
  }
  return { source: `cluster ${config.server} (${config.source})`, crds };
}

function restConfig(env: NodeJS.ProcessEnv | undefined): RestConfig {
  try {
    return loadRestConfig(env === undefined ? {} : { env });
  } catch (err) {
    if (err instanceof KubeconfigError)
      throw new TsoperatorError(`--against-cluster: ${err.message}`, { cause: err });
    throw err;
  }
}
