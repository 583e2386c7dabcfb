import type { KubeConfig } from '@kubernetes/client-node';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Contender } from '../operator/contender.ts';
import { BenchProcess } from './bench-process.ts';

/** A proxy the bench started for one operator, closed with it. */
export interface OwnProxy {
  close(): Promise<void>;
}

/** An operator's time to drain and exit on SIGTERM before it is killed. */
const STOP_GRACE_MS = 10_000;

/**
 * An operator started with a kubeconfig whose server is its own proxy to the API server, so that
 * the bench can break what passes between them (silence it, answer 429 in its place).
 */
export class ProxiedOperator<P extends OwnProxy> {
  readonly proxy: P;
  readonly #process: BenchProcess;
  readonly #dir: string;

  private constructor(proxy: P, process: BenchProcess, dir: string) {
    this.proxy = proxy;
    this.#process = process;
    this.#dir = dir;
  }

  /** Starts `contender` on `kubeConfig`, whose server is `proxy`'s. */
  static start<P extends OwnProxy>(
    contender: Contender,
    kubeConfig: KubeConfig,
    proxy: P,
  ): ProxiedOperator<P> {
    const dir = mkdtempSync(join(tmpdir(), 'bench-proxied-'));
    const kubeconfigPath = join(dir, 'kubeconfig');
    writeFileSync(kubeconfigPath, kubeConfig.exportConfig());
    const process = new BenchProcess(contender.name, {
      command: contender.command,
      args: contender.args('default'),
      env: { ...globalThis.process.env, KUBECONFIG: kubeconfigPath, BENCH_HEAP_FILE: join(dir, 'heap.json') },
      ...(contender.cwd ? { cwd: contender.cwd } : {}),
    });
    return new ProxiedOperator(proxy, process, dir);
  }

  /** Throws with its last output if the operator has exited. */
  assertRunning(): void {
    this.#process.assertRunning();
  }

  async stop(): Promise<void> {
    await this.#process.stop(STOP_GRACE_MS);
    await this.proxy.close();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
