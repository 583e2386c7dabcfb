import { InvalidArgumentError } from 'commander';
import { parseControllers } from '../envtest/controller-selection.ts';
import { startEnvironment } from '../envtest/environment.ts';
import { InterruptedError, isTsoperatorError } from '../errors.ts';

export interface EnvtestStartOptions {
  nodes: number;
  crd?: string[];
  /** kube-controller-manager's `--controllers` entries; default: its `*`. */
  controllers?: string[];
}

/**
 * `tsoperator envtest start`: runs a control plane until SIGINT or SIGTERM, printing on stdout the
 * `export KUBECONFIG=...` line that points kubectl or an operator at it. A signal during the start
 * aborts it: what had started is stopped and the command exits 130 (SIGINT) or 143 (SIGTERM).
 */
export async function runEnvtestStart(version: string, options: EnvtestStartOptions): Promise<void> {
  const interrupted = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () =>
      interrupted.abort(
        new InterruptedError(signal, 'the start of the control plane: what had started is stopped'),
      ),
    );
  }
  const stopped = new Promise<void>((resolve) =>
    interrupted.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  const env = await startEnvironment({
    signal: interrupted.signal,
    kubernetesVersion: version,
    controllerManager: options.controllers ? { controllers: options.controllers } : true,
    nodes: options.nodes,
    ...(options.crd ? { crdPaths: options.crd } : {}),
    onProgress: (line) => process.stderr.write(`${line}\n`),
  });
  try {
    process.stdout.write(`export KUBECONFIG='${env.kubeconfigPath}'\n`);
    const nodes = env.nodeNames.length === 0 ? 'no nodes' : `nodes ${env.nodeNames.join(', ')}`;
    process.stderr.write(`control plane at ${env.server} with ${nodes}; Ctrl-C stops it\n`);
    await stopped;
  } finally {
    await env.stop();
  }
}

/** `--nodes`: a whole number of fake nodes. */
export function parseNodeCount(value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0 || count > 100) {
    throw new InvalidArgumentError('the number of nodes is a whole number from 0 to 100');
  }
  return count;
}

/** `--controllers`: kube-controller-manager's own list, `*,-foo,bar`. */
export function parseControllerList(value: string): string[] {
  try {
    return parseControllers(value);
  } catch (err) {
    if (isTsoperatorError(err)) throw new InvalidArgumentError(err.message);
    throw err;
  }
}
