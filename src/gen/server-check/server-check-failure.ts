import { TsoperatorError } from '../../errors.ts';
import { ApiError } from '../../runtime/client/api-error.ts';
import { isApiServerUnreachable } from '../../runtime/client/api-server-unreachable.ts';
import { RequestTimeoutError } from '../../runtime/client/request-timeout-error.ts';
import type { ServerTarget } from './check-on-server.ts';

/**
 * Why the server check could not ask the API server, as one line that says what to do; undefined
 * when `err` is not such a failure (a refusal is reported at its marker, anything else is a bug).
 */
export function serverCheckFailure(
  err: unknown,
  server: string,
  target: ServerTarget,
  timeoutSeconds: number,
): TsoperatorError | undefined {
  const flag = target === 'cluster' ? '--server-dry-run=cluster' : '--server-dry-run';
  const elsewhere =
    target === 'cluster'
      ? 'check that the cluster runs and that the current kubeconfig context points at it (`kubectl config current-context`), or leave out =cluster to check on a control plane of its own'
      : 'the control plane started for the check stopped answering: run the check again';
  const fail = (message: string) => new TsoperatorError(`${flag}: ${message}`, { cause: err });
  if (err instanceof ApiError) {
    if (err.code === 401)
      return fail(
        `the API server at ${server} refuses the current kubeconfig's credentials (401 Unauthorized): log in again, they may have expired`,
      );
    if (err.code === 403)
      return fail(
        `the current kubeconfig's user may not apply CustomResourceDefinitions or webhook configurations (403 Forbidden: ${err.status.message ?? ''}): a dry run needs the permissions of a real apply; use a context whose user has them`,
      );
    if (err.code >= 500 || err.code === 429)
      return fail(`the API server at ${server} failed (${err.code} ${err.status.message ?? ''}): try again`);
    if (!isKubernetesStatus(err))
      return fail(
        `${server} answered ${err.code}, not as a Kubernetes API server answers: it is not an API server; ${elsewhere}`,
      );
    return undefined;
  }
  if (err instanceof RequestTimeoutError)
    return fail(`the API server at ${server} did not answer within ${timeoutSeconds} s: ${elsewhere}`);
  if (isApiServerUnreachable(err))
    return fail(`cannot reach the API server at ${server} (${rootCause(err)}): ${elsewhere}`);
  return undefined;
}

/** An API server's errors carry a reason; a body that is not a Status gets none when parsed. */
function isKubernetesStatus(err: ApiError): boolean {
  return err.status.reason !== undefined;
}

function rootCause(err: unknown): string {
  let cause: unknown = err;
  while (typeof cause === 'object' && cause !== null && 'cause' in cause && cause.cause !== undefined)
    cause = cause.cause;
  if (typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string')
    return cause.code;
  return cause instanceof Error ? cause.message : String(cause);
}
