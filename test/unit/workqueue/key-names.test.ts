import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Workqueue } from '../../../src/runtime/workqueue/workqueue.ts';
import { keyOf } from './key-of.ts';

// The queue finds keys through an object used as a dictionary: names an object has already, and
// names JavaScript treats as array indices, must be keys like any other.
const KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '',
  '0',
  '7',
  '-1',
  '1.5',
  '4294967295',
  'ns/ü-名前',
];

test('any string is a key: each is queued once, handed out, and queued again after done', async () => {
  const queue = new Workqueue();
  for (const key of [...KEYS, ...KEYS]) queue.add(key);
  assert.equal(queue.len, KEYS.length);
  const served: string[] = [];
  while (queue.len > 0) {
    const key = keyOf(await queue.get());
    // Added again while processed the first time: handed out once more after done.
    if (!served.includes(key)) queue.add(key);
    served.push(key);
    queue.done(key);
  }
  assert.deepEqual(served, [...KEYS, ...KEYS]);
  queue.done('constructor');
  assert.equal(queue.len, 0);
});

test('a key built at run time finds the entry of an equal literal', async () => {
  const queue = new Workqueue();
  const namespace = 'default';
  queue.add('default/web');
  queue.add(`${namespace}/${'web'}`);
  queue.add(['default', 'web'].join('/'));
  assert.equal(queue.len, 1);
  const key = keyOf(await queue.get());
  queue.done(`${namespace}/web`);
  assert.equal(key, 'default/web');
  queue.add('default/web');
  assert.equal(queue.len, 1);
});
