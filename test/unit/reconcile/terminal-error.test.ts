import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTerminalError, TerminalError } from '../../../src/runtime/reconcile/terminal-error.ts';

test('a TerminalError is terminal, itself or as a cause at any depth', () => {
  const terminal = new TerminalError('spec.size must be positive');
  assert.equal(isTerminalError(terminal), true);
  assert.equal(
    isTerminalError(new Error('outer', { cause: new Error('middle', { cause: terminal }) })),
    true,
  );
  assert.equal(isTerminalError(new Error('plain')), false);
  assert.equal(isTerminalError('a string'), false);
});

test('a cycle of causes without a TerminalError ends the search: not terminal', () => {
  const a = new Error('a');
  const b = new Error('b', { cause: a });
  a.cause = b;
  assert.equal(isTerminalError(a), false);
  const selfish = new Error('self');
  selfish.cause = selfish;
  assert.equal(isTerminalError(selfish), false);
});

test('a TerminalError inside a cycle of causes is found', () => {
  const terminal = new TerminalError('invalid', { cause: undefined });
  const wrapper = new Error('wrapper', { cause: terminal });
  terminal.cause = wrapper;
  assert.equal(isTerminalError(wrapper), true);
});

test('a cause that cannot be read counts as none', () => {
  const err = new Error('outer');
  Object.defineProperty(err, 'cause', {
    get: () => {
      throw new Error('unreadable');
    },
  });
  assert.equal(isTerminalError(err), false);
});
