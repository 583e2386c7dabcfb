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

  it('adds the node controllers after the list, so that a setting of the list keeps deciding', () => {
    assert.deepEqual(
      withNodeControllers(['job-controller', '-pod-garbage-collector-controller'], NODE_CONTROLLERS),
      [
        'job-controller',
        '-pod-garbage-collector-controller',
        'node-lifecycle-controller',
        'pod-garbage-collector-controller',
      ],
    );
  });

  it('refuses nodes without the node lifecycle controller, which makes them schedulable', () => {
    assert.throws(
      () => withNodeControllers(['*', '-node-lifecycle-controller'], NODE_CONTROLLERS),
      (err: unknown) =>
        err instanceof UsageError && /fake nodes need node-lifecycle-controller/.test(err.message),
    );
  });
});
