import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cloneJson, deepFreeze } from '../../../src/runtime/cache/copy-on-read.ts';

describe('copy-on-read', () => {
  const object = (): {
    metadata: { labels: Record<string, string> };
    spec: { ports: { port: number }[] };
  } => ({
    metadata: { labels: { a: '1' } },
    spec: { ports: [{ port: 80 }] },
  });

  it('freezes every level of a stored object', () => {
    const frozen = deepFreeze(object());
    assert.throws(() => {
      frozen.metadata.labels['b'] = '2';
    }, TypeError);
    assert.throws(() => {
      frozen.spec.ports.push({ port: 443 });
    }, TypeError);
    assert.throws(() => {
      (frozen.spec.ports[0] as { port: number }).port = 8080;
    }, TypeError);
  });

  it('copies a frozen object into an equal one that may change freely', () => {
    const frozen = deepFreeze(object());
    const copy = cloneJson(frozen);
    assert.deepEqual(copy, object());
    copy.metadata.labels['b'] = '2';
    copy.spec.ports.push({ port: 443 });
    assert.deepEqual(frozen, object());
  });

  it('copies a Date a mutate function set as a Date of the same time', () => {
    const at = new Date('2026-12-05T10:00:00Z');
    const copy = cloneJson({ status: { lastScheduleTime: at } });
    assert.ok(copy.status.lastScheduleTime instanceof Date);
    assert.equal(copy.status.lastScheduleTime.getTime(), at.getTime());
    assert.notEqual(copy.status.lastScheduleTime, at);
  });
});
