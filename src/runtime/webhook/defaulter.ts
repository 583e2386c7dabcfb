import type { Json } from '../api/json.ts';
import type { KubeObject } from '../api/kube-object.ts';
import type { AdmissionHandler, AdmissionRequest } from './admission-review.ts';
import { deniedBy, patched } from './admission-responses.ts';
import { jsonDiff, type JsonValue } from './json-diff.ts';
import { MalformedRequestError } from './malformed-request-error.ts';

/**
 * Fills in defaults, as controller-runtime's CustomDefaulter: `default` changes `obj` in place (a
 * copy of the object being created or updated, as JSON: `Json<T>`) and the webhook answers with the
 * JSON patch of the changes. Throwing refuses the request (a ValidationError lists the fields).
 *
 * @example
 * ```ts
 * const defaulter: CustomDefaulter<WebApp> = {
 *   default(app) {
 *     app.spec.replicas ??= 1;
 *   },
 * };
 * ```
 */
export interface CustomDefaulter<T extends KubeObject> {
  default(obj: Json<T>, req: AdmissionRequest<Json<T>>): void | Promise<void>;
}

/** The admission handler of a defaulter. DELETE and CONNECT are admitted untouched. */
export function defaultingHandler<T extends KubeObject>(defaulter: CustomDefaulter<T>): AdmissionHandler {
  return async (request) => {
    const req = request as AdmissionRequest<Json<T>>;
    if (req.operation !== 'CREATE' && req.operation !== 'UPDATE') return { allowed: true };
    const original = req.object;
    if (!original) throw new MalformedRequestError(`the ${req.operation} request has no object`);
    const obj = structuredClone(original);
    try {
      await defaulter.default(obj, req);
    } catch (err) {
      return deniedBy(err, req);
    }
    // Through JSON, as the API server will read it: undefined fields vanish, Dates become strings.
    const defaulted = JSON.parse(JSON.stringify(obj)) as JsonValue;
    return patched(jsonDiff(original as unknown as JsonValue, defaulted));
  };
}
