import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  fieldErrorText,
  invalidStatus,
  ValidationError,
} from '../../../src/runtime/webhook/validation-error.ts';

describe('ValidationError', () => {
  it("words field errors as apimachinery's field.Error does", () => {
    assert.equal(
      fieldErrorText({ field: 'spec.replicas', value: 0, message: 'must be at least 1' }),
      'spec.replicas: Invalid value: 0: must be at least 1',
    );
    assert.equal(
      fieldErrorText({ field: 'spec.image', value: 'a b', message: 'no spaces' }),
      'spec.image: Invalid value: "a b": no spaces',
    );
    assert.equal(
      fieldErrorText({ field: 'spec.image', type: 'Required', value: '', message: '' }),
      'spec.image: Required value',
    );
    assert.equal(
      fieldErrorText({
        field: 'spec.mode',
        type: 'NotSupported',
        value: 'x',
        message: 'supported values: "a", "b"',
      }),
      'spec.mode: Unsupported value: "x": supported values: "a", "b"',
    );
  });

  it('builds the Invalid status the API server answers with, one error or several', () => {
    const one = invalidStatus({ group: 'demo.example.org', kind: 'WebApp', name: 'x' }, [
      { field: 'spec.replicas', message: 'too many' },
    ]);
    assert.equal(
      one.message,
      'WebApp.demo.example.org "x" is invalid: spec.replicas: Invalid value: too many',
    );
    assert.equal(one.code, 422);
    assert.deepEqual(one.details?.causes, [
      { reason: 'FieldValueInvalid', message: 'Invalid value: too many', field: 'spec.replicas' },
    ]);
    const two = invalidStatus({ group: '', kind: 'Pod', name: 'p' }, [
      { field: 'a', type: 'Required', message: '' },
      { field: 'b', type: 'Forbidden', message: 'no' },
    ]);
    assert.equal(two.message, 'Pod "p" is invalid: [a: Required value, b: Forbidden: no]');
  });

  it('carries its field errors and reads them as its message', () => {
    const err = new ValidationError([{ field: 'spec.x', message: 'bad' }]);
    assert.equal(err.message, 'spec.x: Invalid value: bad');
    assert.equal(err.fieldErrors.length, 1);
  });
});
