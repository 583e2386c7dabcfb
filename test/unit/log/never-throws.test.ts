import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorMessage } from '../../../src/runtime/log/error-message.ts';
import { createLogger, type LogFields, type Logger } from '../../../src/runtime/log/logger.ts';
import { REDACTED } from '../../../src/runtime/log/redact.ts';
import { CIRCULAR, safeStringify, TOO_DEEP } from '../../../src/runtime/log/safe-json.ts';

/** A logger into an array, and the lines it wrote, parsed. */
function recording(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const written: string[] = [];
  const logger = createLogger({ level: 'debug', write: (l) => written.push(l), now: () => 0 });
  return { logger, lines: () => written.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

/** The one line `fields` make, parsed. */
function lineOf(fields: LogFields): Record<string, unknown> {
  const { logger, lines } = recording();
  logger.error('failed', fields);
  const [line, ...more] = lines();
  assert.equal(more.length, 0);
  assert.ok(line);
  assert.equal(line['msg'], 'failed');
  return line;
}

test('a circular object is written up to the cycle, which is marked', () => {
  const parent: Record<string, unknown> = { name: 'p' };
  parent['children'] = [{ parent }];
  parent['self'] = parent;
  assert.deepEqual(lineOf({ parent })['parent'], {
    name: 'p',
    children: [{ parent: CIRCULAR }],
    self: CIRCULAR,
  });
});

test('an object met twice but not inside itself is written twice, not marked', () => {
  const shared = { x: 1 };
  assert.deepEqual(lineOf({ a: shared, b: [shared, shared] }), {
    ...lineOf({}),
    a: { x: 1 },
    b: [{ x: 1 }, { x: 1 }],
  });
});

test('a BigInt is written as its digits with an n', () => {
  assert.deepEqual(lineOf({ big: 2n ** 70n, nested: { n: -1n } }).big, '1180591620717411303424n');
  assert.deepEqual(lineOf({ nested: { n: -1n } })['nested'], { n: '-1n' });
});

test('a getter that throws is marked with what it threw; the other fields are written', () => {
  const obj = {
    ok: 1,
    get broken(): never {
      throw new Error('no access');
    },
  };
  assert.deepEqual(lineOf({ obj, after: 'yes' }), {
    ...lineOf({}),
    obj: { ok: 1, broken: '[Unreadable: no access]' },
    after: 'yes',
  });
});

test('a getter that throws in the fields themselves, or in a child logger, is marked too', () => {
  const fields = Object.defineProperty({ fine: true }, 'bad', {
    enumerable: true,
    get: () => {
      throw new TypeError('boom');
    },
  });
  assert.equal(lineOf(fields)['bad'], '[Unreadable: boom]');
  const { logger, lines } = recording();
  logger.child(fields).info('from a child');
  assert.deepEqual([lines()[0]?.['fine'], lines()[0]?.['bad']], [true, '[Unreadable: boom]']);
});

test('a toJSON that throws is marked; one that works is used', () => {
  const bad = {
    toJSON(): never {
      throw new Error('cannot serialise');
    },
  };
  const good = { toJSON: () => 'as text' };
  assert.deepEqual(
    [lineOf({ bad })['bad'], lineOf({ good })['good']],
    ['[Unreadable: cannot serialise]', 'as text'],
  );
});

test('Symbol values and Symbol keys are written by their description, not dropped', () => {
  const line = lineOf({
    kind: Symbol('widget'),
    obj: { [Symbol('id')]: 7, plain: 1 },
    list: [Symbol.iterator],
  });
  assert.equal(line['kind'], 'Symbol(widget)');
  assert.deepEqual(line['obj'], { plain: 1, 'Symbol(id)': 7 });
  assert.deepEqual(line['list'], ['Symbol(Symbol.iterator)']);
});

test('an Error is written with its chain of causes, a cycle of causes marked', () => {
  const outer = new Error('reconcile failed');
  const inner = new Error('write refused', { cause: outer });
  outer.cause = inner;
  assert.deepEqual(lineOf({ error: outer })['error'], {
    name: 'Error',
    message: 'reconcile failed',
    cause: { name: 'Error', message: 'write refused', cause: CIRCULAR },
  });
});

test('an Error that causes itself, or whose message getter throws, still gives a line', () => {
  const selfish = new Error('me');
  selfish.cause = selfish;
  assert.deepEqual(lineOf({ error: selfish })['error'], { name: 'Error', message: 'me', cause: CIRCULAR });
  const hostile = new Error('hidden');
  Object.defineProperty(hostile, 'message', {
    get: () => {
      throw new Error('message unreadable');
    },
  });
  assert.equal(lineOf({ error: hostile })['error'], '[Unreadable: message unreadable]');
});

test('nesting past the limit is marked, not a stack overflow', () => {
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 100_000; i++) deep = { deep };
  const text = JSON.stringify(lineOf({ deep }));
  assert.ok(text.includes(TOO_DEEP), 'the cut is marked');
});

test('credentials stay redacted inside values the serialiser had to mend', () => {
  const headers: Record<string, unknown> = { Authorization: 'Bearer abc.def-ghi', n: 1n };
  headers['self'] = headers;
  assert.deepEqual(lineOf({ headers })['headers'], { Authorization: REDACTED, n: '1n', self: CIRCULAR });
});

test('a sink that throws does not reach the caller', () => {
  const logger = createLogger({
    write: () => {
      throw new Error('EPIPE');
    },
  });
  assert.doesNotThrow(() => logger.error('lost', { x: 1 }));
});

test('safeStringify writes what JSON.stringify writes when nothing needs mending', () => {
  const value = {
    a: [1, 'two', null, undefined, () => 3],
    b: { c: true, d: undefined },
    e: new Date(0),
    f: NaN,
  };
  assert.equal(safeStringify(value), JSON.stringify(value));
  assert.equal(safeStringify({ ['__proto__']: { polluted: true } }), '{"__proto__":{"polluted":true}}');
});

test('errorMessage never throws, whatever was thrown', () => {
  const noPrototype = Object.create(null) as object;
  const hostile = {
    toString(): never {
      throw new Error('no');
    },
  };
  assert.deepEqual(
    [errorMessage(new Error('m')), errorMessage('text'), errorMessage(noPrototype), errorMessage(hostile)],
    ['m', 'text', '[object]', '[object]'],
  );
});
