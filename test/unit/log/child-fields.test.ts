import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../../../src/runtime/log/logger.ts';

/** A root logger with `{ controller: 'webapp' }` into an array, and its lines as written. */
function recording(): { root: ReturnType<typeof createLogger>; lines: () => string[] } {
  const written: string[] = [];
  const root = createLogger(
    { level: 'info', write: (l) => written.push(l), now: () => 0 },
    { controller: 'webapp' },
  );
  return { root, lines: () => written.map((l) => l.trimEnd()) };
}

test('a grandchild writes every ancestor field in order, a later value in the earlier place', () => {
  const { root, lines } = recording();
  root
    .child({ namespace: 'default', name: 'a' })
    .child({ controller: 'other', reconcileID: 'r1' })
    .info('hi', { n: 1 });
  assert.deepEqual(lines(), [
    '{"level":"info","ts":"1970-01-01T00:00:00.000Z","msg":"hi","controller":"other","namespace":"default","name":"a","reconcileID":"r1","n":1}',
  ]);
});

test("a child keeps the fields it was given: changing the caller's object afterwards changes no line", () => {
  const { root, lines } = recording();
  const fields: Record<string, unknown> = { name: 'a' };
  const child = root.child(fields);
  fields['name'] = 'b';
  fields['added'] = true;
  child.info('hi');
  assert.deepEqual(JSON.parse(lines()[0] as string), {
    level: 'info',
    ts: '1970-01-01T00:00:00.000Z',
    msg: 'hi',
    controller: 'webapp',
    name: 'a',
  });
});

test('a child field whose getter throws is marked as it was when the child was made', () => {
  const { root, lines } = recording();
  let calls = 0;
  const fields = {
    get flaky(): string {
      calls++;
      throw new Error('gone');
    },
  };
  const child = root.child(fields);
  child.info('one');
  child.info('two');
  assert.equal(calls, 2, 'read once by the spread and once for its mark, when the child was made');
  for (const line of lines()) assert.match(line, /"flaky":"\[Unreadable: gone\]"/);
});

test('a child below the level writes nothing and reports the level of its root', () => {
  const { root, lines } = recording();
  const child = root.child({ name: 'a' });
  child.debug('hidden');
  assert.equal(child.enabled('debug'), false);
  assert.equal(child.enabled('error'), true);
  assert.deepEqual(lines(), []);
});
