import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QueueItem } from '../../../src/runtime/workqueue/queue-item.ts';
import { Workqueue } from '../../../src/runtime/workqueue/workqueue.ts';
import { keyOf } from './key-of.ts';
import { flush } from './flush.ts';

test('a key added many times before it is handed out is handed out once', async () => {
  const queue = new Workqueue();
  queue.add('a');
  queue.add('b');
  queue.add('a');
  queue.add('a');
  assert.equal(queue.len, 2);
  assert.equal(keyOf(await queue.get()), 'a');
  assert.equal(keyOf(await queue.get()), 'b');
  assert.equal(queue.len, 0);
  queue.shutDown();
  assert.deepEqual(await queue.get(), { shutdown: true });
});

test('keys are handed out in the order they were first added', async () => {
  const queue = new Workqueue();
  for (const key of ['c', 'a', 'b', 'a', 'c']) queue.add(key);
  const got = [keyOf(await queue.get()), keyOf(await queue.get()), keyOf(await queue.get())];
  assert.deepEqual(got, ['c', 'a', 'b']);
});

test('a key being processed is not handed to a second worker, and is handed out again after done', async () => {
  const queue = new Workqueue();
  queue.add('a');
  assert.equal(keyOf(await queue.get()), 'a');
  queue.add('a');
  queue.add('a');
  assert.equal(queue.len, 0, 'the re-added key waits for done, outside the ready queue');
  let second: string | undefined;
  void queue.get().then((item) => (second = keyOf(item)));
  await flush();
  assert.equal(second, undefined);
  queue.done('a');
  await flush();
  assert.equal(second, 'a');
  queue.done('a');
  assert.equal(queue.len, 0);
});

test('a key done without a re-add is not handed out again', async () => {
  const queue = new Workqueue();
  queue.add('a');
  keyOf(await queue.get());
  queue.done('a');
  let got: QueueItem<string> | undefined;
  void queue.get().then((item) => (got = item));
  await flush();
  assert.equal(got, undefined);
  queue.shutDown();
  await flush();
  assert.deepEqual(got, { shutdown: true });
});

test('a waiting get resolves when a key is added, without any timer', async () => {
  const queue = new Workqueue();
  const waiting = [queue.get(), queue.get()];
  await flush();
  queue.add('x');
  queue.add('y');
  assert.deepEqual(
    (await Promise.all(waiting)).map(keyOf),
    ['x', 'y'],
    'waiting gets are served in call order',
  );
});

test('done of a key that was not handed out changes nothing', async () => {
  const queue = new Workqueue();
  queue.add('a');
  queue.done('a');
  queue.done('b');
  assert.equal(queue.len, 1);
  assert.equal(keyOf(await queue.get()), 'a');
});

test('shutDown resolves waiting gets with shutdown and ignores later adds', async () => {
  const queue = new Workqueue();
  const waiting = queue.get();
  queue.shutDown();
  assert.equal(queue.shuttingDown, true);
  assert.deepEqual(await waiting, { shutdown: true });
  queue.add('late');
  queue.addAfter('late', 10);
  assert.equal(queue.len, 0);
  assert.deepEqual(await queue.get(), { shutdown: true });
});

test('after shutDown the keys still queued are handed out before gets answer shutdown', async () => {
  const queue = new Workqueue();
  queue.add('a');
  queue.add('b');
  queue.shutDown();
  assert.equal(keyOf(await queue.get()), 'a');
  assert.equal(keyOf(await queue.get()), 'b');
  assert.deepEqual(await queue.get(), { shutdown: true });
});

test('shutDownWithDrain resolves only once every key handed out is done', async () => {
  const queue = new Workqueue();
  queue.add('a');
  queue.add('b');
  keyOf(await queue.get());
  keyOf(await queue.get());
  let drained = false;
  const drain = queue.shutDownWithDrain().then(() => (drained = true));
  await flush();
  assert.equal(drained, false);
  queue.done('a');
  await flush();
  assert.equal(drained, false);
  queue.done('b');
  await drain;
  assert.equal(drained, true);
});

test('shutDownWithDrain with nothing in flight resolves at once', async () => {
  const queue = new Workqueue();
  queue.add('queued');
  await queue.shutDownWithDrain();
  assert.equal(queue.shuttingDown, true);
});

test('shutDownWithDrain resolves when nothing is in flight, even if a done queued its key again', async () => {
  const queue = new Workqueue();
  queue.add('a');
  keyOf(await queue.get());
  queue.add('a');
  const drain = queue.shutDownWithDrain();
  queue.done('a');
  await drain;
  assert.equal(queue.len, 1, 'the re-added key is still handed out after shutdown');
  assert.equal(keyOf(await queue.get()), 'a');
});
