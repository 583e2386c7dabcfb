import type { KubeConfig } from '@kubernetes/client-node';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { apiServerRequests, requestsBetween, type RequestCounts } from './api-server-requests.ts';
import { BenchProcess } from '../support/bench-process.ts';
import { anonymousRss, peakRss } from '../support/peak-rss.ts';
import { processCpuSeconds } from '../support/process-cpu.ts';
import type { Contender } from './contender.ts';
import { watchConvergence } from './convergence-watch.ts';

/** What one contender did on one round. */
export interface ContenderRun {
  readonly name: string;
  /** From starting its process until every WebApp converged. */
  readonly seconds: number;
  /** From starting its process until its first Deployment or Service appeared. */
  readonly firstWriteSeconds: number;
  /** Peak resident set of its process (sampled every 100 ms for a process that exits by itself). */
  readonly peakRssBytes: number;
  /** Peak of its anonymous resident memory (RssAnon), sampled every 100 ms. */
  readonly peakAnonymousRssBytes: number;
  /** Peak heap in use as its runtime counts it: V8's heapUsed, Go's HeapAlloc (0 if unreported). */
  readonly peakHeapBytes: number;
  readonly cpuSeconds: number;
  /** CPU the control plane (kube-apiserver and etcd) spent while the contender ran. */
  readonly controlPlaneCpuSeconds: number;
  /** What the API server served for WebApps, Deployments and Services while it ran. */
  readonly requests: RequestCounts;
}

/** Where a contender finds the API server. */
export interface Cluster {
  readonly kubeConfig: KubeConfig;
  readonly kubeconfigPath: string;
  /** The kube-apiserver and etcd processes, whose CPU is counted too. */
  readonly controlPlanePids: readonly number[];
}

const SAMPLE_MS = 100;
const STOP_TIMEOUT_MS = 10_000;

/**
 * Starts the contender against `namespace`'s pre-created WebApps and waits until they have all
 * converged (or `timeoutMs` passed), then stops it.
 */
export async function runContender(
  contender: Contender,
  cluster: Cluster,
  namespace: string,
  expected: number,
  timeoutMs: number,
): Promise<ContenderRun> {
  const watching = new AbortController();
  const { converged } = await watchConvergence(cluster.kubeConfig, namespace, expected, watching.signal);
  const before = await apiServerRequests(cluster.kubeConfig);
  const controlPlaneCpuBefore = cpuOf(cluster.controlPlanePids);
  const heapDir = mkdtempSync(join(tmpdir(), 'bench-heap-'));
  const heapFile = join(heapDir, 'heap.json');
  const start = performance.now();
  const child = new BenchProcess(contender.name, {
    command: contender.command,
    args: contender.args(namespace),
    env: { ...process.env, KUBECONFIG: cluster.kubeconfigPath, BENCH_HEAP_FILE: heapFile },
    ...(contender.cwd ? { cwd: contender.cwd } : {}),
  });
  const pid = child.pid;
  let sample: Sample = { rss: 0, anon: 0, cpu: 0 };
  const sampler = setInterval(() => (sample = measure(pid, sample)), SAMPLE_MS);
  const failed = failure(child, contender);
  let deadline: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    const message = `${contender.name} did not converge ${expected} WebApps in ${timeoutMs} ms`;
    deadline = setTimeout(() => reject(new Error(message)), timeoutMs);
  });
  // Whichever loses the race must not surface later as an unhandled rejection.
  for (const p of [converged, failed]) p.catch(() => undefined);
  try {
    const done = await Promise.race([converged, failed, timedOut]);
    sample = measure(pid, sample);
    const controlPlaneCpuSeconds = cpuOf(cluster.controlPlanePids) - controlPlaneCpuBefore;
    const requests = requestsBetween(before, await apiServerRequests(cluster.kubeConfig));
    clearInterval(sampler);
    await child.stop(STOP_TIMEOUT_MS);
    return {
      name: contender.name,
      seconds: (done.convergedAt - start) / 1000,
      firstWriteSeconds: (done.firstChildAt - start) / 1000,
      peakRssBytes: sample.rss,
      peakAnonymousRssBytes: sample.anon,
      peakHeapBytes: reportedHeap(heapFile),
      cpuSeconds: sample.cpu,
      controlPlaneCpuSeconds,
      requests,
    };
  } finally {
    clearInterval(sampler);
    clearTimeout(deadline);
    watching.abort(new Error('contender finished'));
    await child.stop(STOP_TIMEOUT_MS);
    rmSync(heapDir, { recursive: true, force: true });
  }
}

/** The peak heap the contender wrote at exit. */
function reportedHeap(file: string): number {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { peakHeapBytes?: number }).peakHeapBytes ?? 0;
  } catch {
    return 0;
  }
}

/** What the sampler keeps of the contender's process: peaks and its CPU so far. */
interface Sample {
  readonly rss: number;
  readonly anon: number;
  readonly cpu: number;
}

function measure(pid: number, last: Sample): Sample {
  return {
    rss: peakRss(pid) ?? last.rss,
    anon: Math.max(last.anon, anonymousRss(pid) ?? 0),
    cpu: processCpuSeconds(pid) ?? last.cpu,
  };
}

function cpuOf(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0);
}

/** Rejects when the contender fails: an operator that exits at all, a raw loop that exits non-zero. */
async function failure(child: BenchProcess, contender: Contender): Promise<never> {
  const { code } = await child.exited;
  if (contender.runsUntilStopped || code !== 0) {
    throw new Error(`${contender.name} exited with ${code} before converging:\n${child.stderrTail()}`);
  }
  // A raw loop that finished stays pending here: convergence decides.
  return new Promise<never>(() => undefined);
}
