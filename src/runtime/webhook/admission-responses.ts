import { ApiError } from '../client/api-error.ts';
import type { JsonPatchOperation } from '../client/patch.ts';
import type { AdmissionRequest, AdmissionResponse } from './admission-review.ts';
import { MalformedRequestError } from './malformed-request-error.ts';
import { invalidStatus, ValidationError } from './validation-error.ts';

/** Admits, with warnings for the client. */
export function allowed(warnings: readonly string[] = []): AdmissionResponse {
  return warnings.length ? { allowed: true, warnings } : { allowed: true };
}

/** Admits with the changes of a JSON patch (none: a plain admit). */
export function patched(
  ops: readonly JsonPatchOperation[],
  warnings: readonly string[] = [],
): AdmissionResponse {
  if (!ops.length) return allowed(warnings);
  const patch = Buffer.from(JSON.stringify(ops)).toString('base64');
  return { ...allowed(warnings), patch, patchType: 'JSONPatch' };
}

/**
 * The refusal a handler's error stands for, as controller-runtime answers it: a ValidationError is
 * the API server's `Invalid` Status, an ApiError carries its own Status, anything else is 403.
 * MalformedRequestError is rethrown: the request, not the object, is at fault.
 */
export function deniedBy(err: unknown, req: AdmissionRequest): AdmissionResponse {
  if (err instanceof MalformedRequestError) throw err;
  if (err instanceof ValidationError) {
    const name = req.name || (req.object ?? req.oldObject)?.metadata?.name || '';
    return { allowed: false, status: invalidStatus({ ...req.kind, name }, err.fieldErrors) };
  }
  if (err instanceof ApiError) return { allowed: false, status: err.status };
  const message = err instanceof Error ? err.message : String(err);
  return { allowed: false, status: { code: 403, reason: 'Forbidden', message } };
}
