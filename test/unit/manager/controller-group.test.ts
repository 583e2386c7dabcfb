import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Clock } from '../../../src/runtime/clock/clock.ts';
import { Controller } from '../../../src/runtime/controller/controller.ts';
import {
  ControllerGroup,
  GracefulShutdownTimeoutError,
} from '../../../src/runtime/manager/controller-group.ts';
import { Registry } from 'prom-client';
import { silentLogger } from '../../../src/runtime/log/logger.ts';

/**
 * A clock whose timers fire before its monotonic reading reaches their time, as Node's may (timers
 * run off the event loop's cached time): the drain must take the timer's firing as the deadline.
 */
const earlyTimers: Clock = {
  now: () => 0,
  monotonic: () => 0,
  sleep: (_ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      setImmediate(resolve);
    }),
};

/** A controller with one queued key whose reconcile runs until `release` aborts, ignoring its signal. */
function stuckController(name: string, release: AbortSignal, started: () => void): Controller {
  const controller = new Controller({
    name,
    registry: new Registry(),
    reconciler: {
      reconcile: async () => {
        started();
        await new Promise((resolve) => release.addEventListener('abort', resolve, { once: true }));
        return {};
      },
    },
  });
  controller.queue.add('default/stuck');
  return controller;
}

describe('ControllerGroup', () => {
  it('ends a drain at the timeout even when the timer fires before the clock reads its time', async () => {
    const release = new AbortController();
    let started!: () => void;
    const reconciling = new Promise<void>((resolve) => (started = resolve));
    const group = new ControllerGroup({
      gracefulShutdownTimeout: 50,
      clock: earlyTimers,
      logger: silentLogger,
    });
    group.add(stuckController('stuck', release.signal, started));
    const stop = new AbortController();
    const run = group.run(stop.signal);
    await reconciling;
    stop.abort();
    try {
      await assert.rejects(run, GracefulShutdownTimeoutError);
    } finally {
      release.abort();
    }
  });

  it('stops on a panic at once, while another reconcile of the same controller still runs', async () => {
    const release = new AbortController();
    let stuckStarted = false;
    const controller = new Controller({
      name: 'two-workers',
      registry: new Registry(),
      maxConcurrentReconciles: 2,
      recoverPanic: false,
      reconciler: {
        reconcile: async (req) => {
          if (req.name === 'stuck') {
            stuckStarted = true;
            await new Promise((resolve) => release.signal.addEventListener('abort', resolve, { once: true }));
            return {};
          }
          while (!stuckStarted) await new Promise((resolve) => setImmediate(resolve));
          throw new TypeError('a bug');
        },
      },
    });
    controller.queue.add('default/stuck');
    controller.queue.add('default/panics');
    const group = new ControllerGroup({
      gracefulShutdownTimeout: 50,
      clock: earlyTimers,
      logger: silentLogger,
    });
    group.add(controller);
    try {
      // The stuck reconcile never returns by itself: only the failure, seen at once, ends the run.
      await assert.rejects(group.run(new AbortController().signal), /a bug/);
    } finally {
      release.abort();
    }
  });
});
