import assert from 'node:assert/strict';
import type { QueueItem } from '../../../src/runtime/workqueue/queue-item.ts';

/** The key of a get's answer, failing the test when the answer is shutdown. */
export function keyOf(item: QueueItem<string>): string {
  assert.equal(item.shutdown, false);
  return item.key;
}
