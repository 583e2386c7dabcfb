import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { CacheSyncTimeoutError } from '../../../src/runtime/manager/cache-sync-timeout-error.ts';
import { GracefulShutdownTimeoutError } from '../../../src/runtime/manager/controller-group.ts';
import { createLogger } from '../../../src/runtime/log/logger.ts';
import type { Request } from '../../../src/runtime/reconcile/request.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import {
  createConfigMaps,
  pause,
  runInBackground,
  testManager,
  uniqueNamespace,
  WidgetKind,
} from './support.ts';

/** Aborted when the file's tests are over: ends the reconciles that ignore their signals. */
const testDone = new AbortController();

describe('a manager under failure', () => {
  let env: Environment;
  before(async () => {
    env = await startEnvironment();
  });
  after(async () => {
    testDone.abort();
    await env.stop();
  });

  it('fails start-up when a CRD is not installed, naming the kind and its last error', async () => {
    const mgr = await testManager(env, { cacheSyncTimeout: 1500 });
    mgr
      .controller()
      .for(WidgetKind)
      .complete({ reconcile: async () => ({}) });
    await assert.rejects(mgr.start(new AbortController().signal), (err: unknown) => {
      assert.ok(err instanceof CacheSyncTimeoutError, String(err));
      assert.deepEqual(
        err.unsynced.map((u) => u.kind),
        ['ctrl.tsoperator.dev/v1/Widget'],
      );
      assert.match(err.message, /ctrl\.tsoperator\.dev\/v1\/Widget \(last error: .*not found/i);
      return true;
    });
  });

  it('fails start-up when the list is forbidden, saying so', async () => {
    const user = await env.addUser('no-rights');
    const mgr = await testManager(env, {
      kubeConfig: user.kubeConfig,
      checkPermissions: false,
      cacheSyncTimeout: 1500,
    });
    mgr
      .controller()
      .for(ConfigMapKind)
      .complete({ reconcile: async () => ({}) });
    await assert.rejects(mgr.start(new AbortController().signal), (err: unknown) => {
      assert.ok(err instanceof CacheSyncTimeoutError, String(err));
      assert.match(err.message, /v1\/ConfigMap \(last error: .*forbidden/i);
      return true;
    });
  });

  it('stops on a panic with recoverPanic off: queued keys are not handed out, the lease is released', async () => {
    const ns = uniqueNamespace('panic');
    await createConfigMaps(env, ns, ['a', 'b', 'c', 'd']);
    const mgr = await testManager(env, {
      leaderElection: true,
      leaderElectionId: 'panicky',
      leaderElectionNamespace: 'default',
      leaseDuration: 3000,
      renewDeadline: 2000,
      retryPeriod: 250,
    });
    const reconciled: string[] = [];
    mgr
      .controller('panicky')
      .for(ConfigMapKind)
      .withOptions({ recoverPanic: false })
      .complete({
        reconcile: async (req: Request) => {
          if (req.namespace !== ns) return {};
          reconciled.push(req.name);
          throw new TypeError(`cannot read ${req.name}`);
        },
      });
    await assert.rejects(mgr.start(new AbortController().signal), /cannot read/);
    assert.equal(reconciled.length, 1, `reconciled after the panic: ${reconciled.join(', ')}`);
    const lease = await env.kubeConfig
      .makeApiClient(CoordinationV1Api)
      .readNamespacedLease({ namespace: 'default', name: 'panicky' });
    assert.ok(!lease.spec?.holderIdentity, `the lease is still held by ${lease.spec?.holderIdentity}`);
  });

  it('stops on a thrown value the logger cannot serialise, rejecting with it as the cause', async () => {
    const ns = uniqueNamespace('unserialisable');
    await createConfigMaps(env, ns, ['a']);
    const lines: string[] = [];
    const mgr = await testManager(env, {
      logger: createLogger({ level: 'debug', write: (l) => lines.push(l) }),
    });
    const thrown: Record<string, unknown> = { count: 1n };
    thrown['self'] = thrown;
    Object.defineProperty(thrown, 'broken', {
      enumerable: true,
      get: () => {
        throw new Error('unreadable');
      },
    });
    mgr
      .controller('unserialisable')
      .for(ConfigMapKind)
      .withOptions({ recoverPanic: false })
      .complete({
        reconcile: async (req: Request) => {
          // The point of the test: a thrown value that is no Error.
          // eslint-disable-next-line @typescript-eslint/only-throw-error
          if (req.namespace === ns) throw thrown;
          return {};
        },
      });
    await assert.rejects(mgr.start(new AbortController().signal), (err: unknown) => {
      assert.ok(err instanceof Error && err.message.startsWith('panic: '), String(err));
      assert.equal(err.cause, thrown);
      return true;
    });
    assert.ok(
      lines.some((l) => l.includes('reconcile panicked') && l.includes('[Circular]')),
      'the panic was logged, with what could be written of the value',
    );
  });

  it('bounds the shutdown by gracefulShutdownTimeout, even for a reconcile that ignores its signal', async () => {
    const ns = uniqueNamespace('stuck');
    await createConfigMaps(env, ns, ['stuck']);
    const mgr = await testManager(env, { gracefulShutdownTimeout: 500 });
    let signalOfStuck: AbortSignal | undefined;
    mgr
      .controller('stuck')
      .for(ConfigMapKind)
      .complete({
        reconcile: async (req: Request, signal: AbortSignal) => {
          if (req.namespace !== ns) return {};
          signalOfStuck = signal;
          await pause(10 * 60_000, testDone.signal);
          return {};
        },
      });
    const run = runInBackground(mgr);
    await eventuallyTrue(() => signalOfStuck !== undefined, 'the stuck reconcile to start');
    await assert.rejects(run.stop(), (err: unknown) => {
      assert.ok(err instanceof GracefulShutdownTimeoutError, String(err));
      assert.match(err.message, /controllers stuck still had reconciles running/);
      return true;
    });
    assert.equal(signalOfStuck?.aborted, true, 'the stuck reconcile was told to stop');
  });

  it('arms the same bound when a controller fails while another drains', async () => {
    const ns = uniqueNamespace('fail-drain');
    await createConfigMaps(env, ns, ['stuck']);
    const mgr = await testManager(env, { gracefulShutdownTimeout: 500 });
    let stuckStarted = false;
    mgr
      .controller('stuck-too')
      .for(ConfigMapKind)
      .complete({
        reconcile: async (req: Request) => {
          if (req.namespace !== ns) return {};
          stuckStarted = true;
          await pause(10 * 60_000, testDone.signal);
          return {};
        },
      });
    const failing = mgr
      .controller('failing')
      .for(ConfigMapKind)
      .withOptions({ recoverPanic: false })
      .complete({
        reconcile: async (req: Request) => {
          if (req.namespace !== ns || !stuckStarted) return {};
          throw new RangeError('a bug');
        },
      });
    const run = runInBackground(mgr);
    await eventuallyTrue(() => stuckStarted, 'the stuck reconcile to start');
    failing.queue.add(`${ns}/stuck`);
    await assert.rejects(run.done, /a bug/);
  });

  it('starts a controller registered after start at once, and refuses one after stop', async () => {
    const ns = uniqueNamespace('late');
    const mgr = await testManager(env);
    const run = runInBackground(mgr);
    await eventuallyTrue(
      async () =>
        mgr.healthProbeUrl !== undefined && (await fetch(`${mgr.healthProbeUrl}/readyz`)).status === 200,
      'readyz',
    );
    const reconciled: string[] = [];
    mgr
      .controller('late')
      .for(ConfigMapKind)
      .complete({
        reconcile: async (req: Request) => {
          if (req.namespace === ns) reconciled.push(req.name);
          return {};
        },
      });
    await createConfigMaps(env, ns, ['late-one']);
    await eventuallyTrue(() => reconciled.includes('late-one'), 'the late controller to reconcile');
    await run.stop();
    assert.throws(
      () =>
        mgr
          .controller('too-late')
          .for(ConfigMapKind)
          .complete({ reconcile: async () => ({}) }),
      /added after the manager stopped/,
    );
  });
});
