import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Registry } from 'prom-client';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import type { Client } from '../../../src/runtime/client/client.ts';
import type { Manager } from '../../../src/runtime/manager/manager.ts';
import type { Request } from '../../../src/runtime/reconcile/request.ts';
import { requeueAfter, type Result } from '../../../src/runtime/reconcile/result.ts';
import { TerminalError } from '../../../src/runtime/reconcile/terminal-error.ts';
import { ItemExponentialFailureRateLimiter } from '../../../src/runtime/workqueue/item-exponential-failure-rate-limiter.ts';
import { eventually } from '../../support/eventually.ts';
import { runInBackground, testManager } from './support.ts';

type Script = (call: number, req: Request) => Promise<Result>;

/** Runs, per ConfigMap name, a script of what each successive reconcile does; records when each ran. */
class ScriptedReconciler {
  readonly scripts = new Map<string, Script>();
  readonly times = new Map<string, number[]>();
  readonly running = new Map<string, number>();
  maxRunningPerKey = 0;
  maxRunning = 0;
  #runningTotal = 0;

  async reconcile(req: Request): Promise<Result> {
    const times = this.times.get(req.name) ?? [];
    times.push(performance.now());
    this.times.set(req.name, times);
    const running = (this.running.get(req.name) ?? 0) + 1;
    this.running.set(req.name, running);
    this.#runningTotal += 1;
    this.maxRunningPerKey = Math.max(this.maxRunningPerKey, running);
    this.maxRunning = Math.max(this.maxRunning, this.#runningTotal);
    try {
      const script = this.scripts.get(req.name);
      return script ? await script(times.length, req) : {};
    } finally {
      this.running.set(req.name, (this.running.get(req.name) ?? 1) - 1);
      this.#runningTotal -= 1;
    }
  }

  idle(): boolean {
    return this.#runningTotal === 0;
  }

  calls(name: string): number {
    return this.times.get(name)?.length ?? 0;
  }
}

async function metricValue(
  registry: Registry,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (metric?.values ?? []) as { labels: Record<string, string | number>; value: number }[];
  const match = values.find((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want));
  return match?.value ?? 0;
}

describe('what a controller does with reconcile results', () => {
  let env: Environment;
  let mgr: Manager;
  let client: Client;
  let registry: Registry;
  let stop: () => Promise<void>;
  let queue: { readonly len: number };
  const reconciler = new ScriptedReconciler();
  const BASE_DELAY_MS = 40;

  before(async () => {
    env = await startEnvironment();
    const { Registry: PromRegistry } = await import('prom-client');
    registry = new PromRegistry();
    mgr = await testManager(env, { registry, namespace: 'results' });
    client = mgr.client;
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'results' } });
    queue = mgr
      .controller('scripted')
      .for(ConfigMapKind)
      .withOptions({
        maxConcurrentReconciles: 4,
        rateLimiter: new ItemExponentialFailureRateLimiter({ baseDelay: BASE_DELAY_MS, maxDelay: 60_000 }),
      })
      .complete(reconciler).queue;
    ({ stop } = runInBackground(mgr));
  });
  after(async () => {
    await stop();
    await env.stop();
  });

  const createConfigMap = (name: string): Promise<unknown> =>
    client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'results' } });

  it('reconciles again after requeueAfter', async () => {
    reconciler.scripts.set('later', async (call) => (call === 1 ? requeueAfter(300) : {}));
    await createConfigMap('later');
    await eventually(
      async () => (reconciler.calls('later') >= 2 ? true : undefined),
      'the requeued reconcile',
    );
    const [first = 0, second = 0] = reconciler.times.get('later') ?? [];
    assert.ok(second - first >= 300, `requeued after ${second - first} ms, before the 300 ms asked for`);
  });

  it('backs off exponentially while a reconcile keeps failing', async () => {
    reconciler.scripts.set('flaky', async (call) => {
      if (call <= 5) throw new Error(`failure ${call}`);
      return {};
    });
    await createConfigMap('flaky');
    await eventually(async () => (reconciler.calls('flaky') >= 6 ? true : undefined), 'six attempts', 30_000);
    const times = reconciler.times.get('flaky') ?? [];
    const intervals = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    // The n-th retry waits at least BASE * 2^(n-1): 40, 80, 160, 320, 640 ms.
    intervals.forEach((interval, n) => {
      assert.ok(
        interval >= BASE_DELAY_MS * 2 ** n - 1,
        `retry ${n + 1} came after ${interval} ms, before ${BASE_DELAY_MS * 2 ** n} ms`,
      );
    });
    assert.equal(
      (await metricValue(registry, 'controller_runtime_reconcile_errors_total', {
        controller: 'scripted',
      })) >= 5,
      true,
    );
  });

  it('does not retry a TerminalError', async () => {
    const retriesBefore = await metricValue(registry, 'workqueue_retries_total', { name: 'scripted' });
    reconciler.scripts.set('doomed', async () => {
      throw new TerminalError('spec.size must be positive');
    });
    await createConfigMap('doomed');
    await eventually(
      async () =>
        (await metricValue(registry, 'controller_runtime_terminal_reconcile_errors_total', {
          controller: 'scripted',
        })) === 1
          ? true
          : undefined,
      'the terminal error to be counted',
    );
    assert.equal(reconciler.calls('doomed'), 1);
    // A retry goes through addRateLimited, which counts in workqueue_retries_total before the reconcile is counted.
    assert.equal(await metricValue(registry, 'workqueue_retries_total', { name: 'scripted' }), retriesBefore);
  });

  it('survives a reconciler that throws a TypeError or rejects, and retries it', async () => {
    reconciler.scripts.set('buggy', async (call) => {
      if (call === 1) throw new TypeError("Cannot read properties of undefined (reading 'spec')");
      if (call === 2) return Promise.reject(new Error('rejected'));
      return {};
    });
    await createConfigMap('buggy');
    await eventually(
      async () => (reconciler.calls('buggy') >= 3 ? true : undefined),
      'the reconcile after the panic',
    );
    assert.equal(
      await metricValue(registry, 'controller_runtime_reconcile_panics_total', { controller: 'scripted' }),
      1,
    );
  });

  it('never runs one object twice at once, with four workers', async () => {
    const slow: Script = async () => {
      await new Promise((r) => setTimeout(r, 20));
      return {};
    };
    const names = ['busy-a', 'busy-b', 'busy-c'];
    for (const name of names) reconciler.scripts.set(name, slow);
    for (const name of names) await createConfigMap(name);
    for (let round = 0; round < 10; round++) {
      await Promise.all(
        names.map((name) =>
          client.patch(
            { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'results' } },
            { type: 'merge', body: { data: { round: String(round) } } },
          ),
        ),
      );
    }
    await eventually(
      async () => (names.every((n) => reconciler.calls(n) >= 2) ? true : undefined),
      'the busy objects to be reconciled',
    );
    assert.equal(reconciler.maxRunningPerKey, 1);
    assert.ok(reconciler.maxRunning > 1, 'the four workers never overlapped');
  });

  it('exposes controller-runtime metrics with the counts of what happened', async () => {
    const text = await (await fetch(`${mgr.metricsUrl}/metrics`)).text();
    for (const name of [
      'controller_runtime_reconcile_total',
      'controller_runtime_reconcile_errors_total',
      'controller_runtime_terminal_reconcile_errors_total',
      'controller_runtime_reconcile_time_seconds_bucket',
      'controller_runtime_max_concurrent_reconciles',
      'controller_runtime_active_workers',
      'workqueue_adds_total',
      'workqueue_depth',
      'process_cpu_user_seconds_total',
    ]) {
      assert.match(text, new RegExp(`^${name}`, 'm'), `${name} missing from /metrics`);
    }
    assert.match(text, /^controller_runtime_max_concurrent_reconciles\{controller="scripted"\} 4$/m);
    // A reconcile is counted when it ends: compare once nothing runs and nothing waits.
    await eventually(
      async () => (reconciler.idle() && queue.len === 0 ? true : undefined),
      'the controller to go idle',
    );
    let counted = 0;
    for (const result of ['success', 'error', 'requeue', 'requeue_after']) {
      counted += await metricValue(registry, 'controller_runtime_reconcile_total', {
        controller: 'scripted',
        result,
      });
    }
    const calls = [...reconciler.times.values()].reduce((n, t) => n + t.length, 0);
    assert.equal(counted, calls);
    assert.equal(
      await metricValue(registry, 'controller_runtime_reconcile_total', {
        controller: 'scripted',
        result: 'requeue_after',
      }),
      1,
    );
  });
});
