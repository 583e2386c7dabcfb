import type { Json } from '../api/json.ts';
import type { KubeObject } from '../api/kube-object.ts';
import type { AdmissionHandler, AdmissionRequest } from './admission-review.ts';
import { allowed, deniedBy } from './admission-responses.ts';
import { MalformedRequestError } from './malformed-request-error.ts';

/**
 * Warnings for the client (kubectl prints each as `Warning: ...`). Returning nothing means none:
 * `void` lets a method without a return statement implement the interface.
 */
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type
export type Warnings = readonly string[] | void;

/**
 * Admits or refuses objects, as controller-runtime's CustomValidator: return warnings to admit,
 * throw a ValidationError (the fields at fault) or any Error to refuse. A missing method admits.
 * Objects come as the API server sent them, `Json<T>`.
 *
 * @example
 * ```ts
 * const validator: CustomValidator<WebApp> = {
 *   validateCreate(app) {
 *     if (app.spec.replicas > 10) return ['more than 10 replicas is expensive'];
 *   },
 *   validateUpdate(oldApp, app) {
 *     if (app.spec.image !== oldApp.spec.image && !app.spec.image)
 *       throw new ValidationError([{ field: 'spec.image', type: 'Required', message: 'must stay set' }]);
 *   },
 * };
 * ```
 */
export interface CustomValidator<T extends KubeObject> {
  validateCreate?(obj: Json<T>, req: AdmissionRequest<Json<T>>): Warnings | Promise<Warnings>;
  validateUpdate?(
    oldObj: Json<T>,
    newObj: Json<T>,
    req: AdmissionRequest<Json<T>>,
  ): Warnings | Promise<Warnings>;
  validateDelete?(obj: Json<T>, req: AdmissionRequest<Json<T>>): Warnings | Promise<Warnings>;
}

/** The admission handler of a validator. CONNECT is admitted. */
export function validatingHandler<T extends KubeObject>(validator: CustomValidator<T>): AdmissionHandler {
  return async (request) => {
    const req = request as AdmissionRequest<Json<T>>;
    try {
      return allowed((await validate(validator, req)) ?? []);
    } catch (err) {
      return deniedBy(err, req);
    }
  };
}

function validate<T extends KubeObject>(
  validator: CustomValidator<T>,
  req: AdmissionRequest<Json<T>>,
): Warnings | Promise<Warnings> {
  switch (req.operation) {
    case 'CREATE':
      return validator.validateCreate?.(required(req, 'object'), req);
    case 'UPDATE':
      return validator.validateUpdate?.(required(req, 'oldObject'), required(req, 'object'), req);
    case 'DELETE':
      return validator.validateDelete?.(required(req, 'oldObject'), req);
    case 'CONNECT':
      return undefined;
  }
}

function required<T extends KubeObject>(
  req: AdmissionRequest<Json<T>>,
  field: 'object' | 'oldObject',
): Json<T> {
  const obj = req[field];
  if (!obj) throw new MalformedRequestError(`the ${req.operation} request has no ${field}`);
  return structuredClone(obj);
}
