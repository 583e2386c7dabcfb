import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger, type LogFields } from '../../../src/runtime/log/logger.ts';

/** The line a child of a logger with `parent` fields writes with `child` fields, as written. */
function childLine(parent: LogFields, child: LogFields): string {
  const written: string[] = [];
  createLogger({ write: (l) => written.push(l), now: () => 0 }, parent)
    .child(child)
    .info('x');
  const [line, ...more] = written;
  assert.equal(more.length, 0);
  assert.ok(line);
  return line.trim();
}

test("a parent's Symbol-keyed field comes before the child's fields, where the parent had it", () => {
  const line = childLine({ [Symbol('trace')]: 't1', controller: 'c' }, { reconcileID: 'r' });
  assert.match(line, /"controller":"c","Symbol\(trace\)":"t1","reconcileID":"r"/);
});

test('a child\'s "Symbol(x)" field replaces its parent\'s Symbol(x) field', () => {
  const line = childLine({ [Symbol('trace')]: 't1' }, { 'Symbol(trace)': 'override' });
  assert.match(line, /"Symbol\(trace\)":"override"/);
  assert.doesNotMatch(line, /"t1"/);
});
