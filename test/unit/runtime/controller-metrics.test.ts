import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { Controller } from '../../../src/runtime/controller/controller.ts';
import { eventually } from '../../support/eventually.ts';

describe('controller metrics', () => {
  it("start every counter of a controller at zero, before its first reconcile, as controller-runtime's do", async () => {
    const registry = new Registry();
    const controller = new Controller({
      name: 'widgets',
      registry,
      reconciler: { reconcile: async () => ({}) },
    });
    const stop = new AbortController();
    const running = controller.start({ stop: stop.signal });
    try {
      const expected = [
        'controller_runtime_reconcile_total{controller="widgets",result="success"} 0',
        'controller_runtime_reconcile_total{controller="widgets",result="error"} 0',
        'controller_runtime_reconcile_total{controller="widgets",result="requeue"} 0',
        'controller_runtime_reconcile_total{controller="widgets",result="requeue_after"} 0',
        'controller_runtime_reconcile_errors_total{controller="widgets"} 0',
        'controller_runtime_terminal_reconcile_errors_total{controller="widgets"} 0',
        'controller_runtime_reconcile_panics_total{controller="widgets"} 0',
        'controller_runtime_max_concurrent_reconciles{controller="widgets"} 1',
        'controller_runtime_active_workers{controller="widgets"} 0',
      ];
      const text = await eventually(async () => {
        const scraped = await registry.metrics();
        return expected.every((line) => scraped.split('\n').includes(line)) ? scraped : undefined;
      }, 'the controller to start its series');
      for (const line of expected) assert.ok(text.includes(line), line);
    } finally {
      stop.abort();
      await running;
    }
  });
});
