import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseControllers, withNodeControllers } from '../../../src/envtest/controller-selection.ts';
import { NODE_CONTROLLERS } from '../../../src/envtest/kube-controller-manager.ts';
import { UsageError } from '../../../src/errors.ts';

describe("kube-controller-manager's --controllers list", () => {
  it('reads its own syntax: `*`, names to turn on and `-name` to turn off, spaces trimmed', () => {
    assert.deepEqual(
      parseControllers('*, -horizontal-pod-autoscaler-controller,bootstrap-signer-controller'),
      ['*', '-horizontal-pod-autoscaler-controller', 'bootstrap-signer-controller'],
    );
    assert.deepEqual(parseControllers('job-controller'), ['job-controller']);
  });

  it('refuses a malformed entry or an empty list as a usage error that shows the syntax', () => {
    for (const text of ['', 'job-controller,', 'Job', '--job-controller', '*,job controller']) {
      assert.throws(
        () => parseControllers(text),
        (err: unknown) =>
          err instanceof UsageError && /give entries such as `\*,-horizontal/.test(err.message),
        text,
      );
    }
  });

  it('adds the node controllers after the list, which also turns on the one it left out', () => {
    assert.deepEqual(withNodeControllers(['job-controller'], NODE_CONTROLLERS), [
      'job-controller',
      'node-lifecycle-controller',
      'pod-garbage-collector-controller',
      'serviceaccount-controller',
    ]);
  });

  // kube-controller-manager reads the former names (nodelifecycle) as the new ones: a list turning
  // one off by either name would leave the fake nodes tainted, or their Pods refused, until a timeout.
  it('refuses nodes without a controller they need, by its name or a former one', () => {
    for (const off of [
      '-node-lifecycle-controller',
      '-nodelifecycle',
      '-podgc',
      '-serviceaccount-controller',
      '-serviceaccount',
    ]) {
      assert.throws(
        () => withNodeControllers(['*', off], NODE_CONTROLLERS),
        (err: unknown) =>
          err instanceof UsageError && /^fake nodes need [a-z-]+-controller \(/.test(err.message),
        off,
      );
    }
  });
});
