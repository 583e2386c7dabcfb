import { KubeConfig } from '@kubernetes/client-node';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeverableProxy } from '../../test/support/severable-proxy.ts';
import type { Contender } from '../operator/contender.ts';

const STOP_TIMEOUT_MS = 10_000;

/**
 * An operator started with a kubeconfig whose server is a severable TCP proxy to the API server
 * (TLS passes through it untouched), so that the bench can silence every connection it has open.
 */
export class ProxiedOperator {
  readonly proxy: SeverableProxy;
  readonly #child: ChildProcess;
  readonly #dir: string;
  #stderr = '';

  private constructor(proxy: SeverableProxy, child: ChildProcess, dir: string) {
    this.proxy = proxy;
    this.#child = child;
    this.#dir = dir;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (this.#stderr = (this.#stderr + chunk).slice(-8192)));
  }

  static async start(contender: Contender, server: string, kubeConfig: KubeConfig): Promise<ProxiedOperator> {
    const proxy = await SeverableProxy.start(server);
    const dir = mkdtempSync(join(tmpdir(), 'bench-silent-'));
    const kubeconfigPath = join(dir, 'kubeconfig');
    writeFileSync(kubeconfigPath, throughProxy(kubeConfig, proxy.url).exportConfig());
    const child = spawn(contender.command, contender.args('default'), {
      env: { ...process.env, KUBECONFIG: kubeconfigPath, BENCH_HEAP_FILE: join(dir, 'heap.json') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return new ProxiedOperator(proxy, child, dir);
  }

  /** Throws with its last output if the operator has exited. */
  assertRunning(): void {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) {
      throw new Error(
        `the operator exited (${this.#child.exitCode ?? this.#child.signalCode}):\n${this.#stderr}`,
      );
    }
  }

  async stop(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) {
      const exited = once(this.#child, 'exit');
      this.#child.kill('SIGTERM');
      const killer = setTimeout(() => this.#child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(killer);
    }
    await this.proxy.close();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

/** `kubeConfig` with its current cluster's server replaced by `server`. */
function throughProxy(kubeConfig: KubeConfig, server: string): KubeConfig {
  const current = kubeConfig.getCurrentCluster()?.name;
  const copy = new KubeConfig();
  copy.loadFromOptions({
    clusters: kubeConfig.clusters.map((c) => (c.name === current ? { ...c, server } : c)),
    users: kubeConfig.users,
    contexts: kubeConfig.contexts,
    currentContext: kubeConfig.currentContext,
  });
  return copy;
}
