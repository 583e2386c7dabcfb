import type { Status } from '../client/api-error.ts';

/** What is wrong with a field, as apimachinery's field.ErrorType names it. */
export type FieldErrorType =
  'Invalid' | 'Required' | 'Forbidden' | 'Duplicate' | 'NotSupported' | 'NotFound' | 'TooLong' | 'TooMany';

/** One invalid field, e.g. `{ field: 'spec.replicas', message: 'must be at least 1', value: 0 }`. */
export interface FieldError {
  /** The field's path, as the API server spells it: `spec.containers[0].image`. */
  readonly field: string;
  readonly message: string;
  /** Default: 'Invalid'. */
  readonly type?: FieldErrorType;
  /** The offending value, shown in the message when given. */
  readonly value?: unknown;
}

/**
 * Thrown by a validator (or defaulter) to refuse an object: the webhook answers with an `Invalid`
 * Status listing the fields, and the client reads the API server's own wording:
 * `WebApp.demo.example.org "x" is invalid: spec.replicas: Invalid value: 0: must be at least 1`.
 *
 * @example
 * ```ts
 * if (app.spec.replicas < 1)
 *   throw new ValidationError([{ field: 'spec.replicas', value: app.spec.replicas, message: 'must be at least 1' }]);
 * ```
 */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  readonly fieldErrors: readonly FieldError[];

  constructor(fieldErrors: readonly FieldError[]) {
    super(aggregate(fieldErrors));
    this.fieldErrors = fieldErrors;
  }
}

const TYPE_TEXT: Record<FieldErrorType, string> = {
  Invalid: 'Invalid value',
  Required: 'Required value',
  Forbidden: 'Forbidden',
  Duplicate: 'Duplicate value',
  NotSupported: 'Unsupported value',
  NotFound: 'Not found',
  TooLong: 'Too long',
  TooMany: 'Too many',
};

const CAUSE_REASON: Record<FieldErrorType, string> = {
  Invalid: 'FieldValueInvalid',
  Required: 'FieldValueRequired',
  Forbidden: 'FieldValueForbidden',
  Duplicate: 'FieldValueDuplicate',
  NotSupported: 'FieldValueNotSupported',
  NotFound: 'FieldValueNotFound',
  TooLong: 'FieldValueTooLong',
  TooMany: 'FieldValueTooMany',
};

/** Types whose message never shows the value, as apimachinery formats them. */
const VALUE_OMITTED = new Set<FieldErrorType>(['Required', 'Forbidden', 'TooLong']);

/** `spec.replicas: Invalid value: 0: must be at least 1`, as apimachinery's field.Error reads. */
export function fieldErrorText(error: FieldError): string {
  const type = error.type ?? 'Invalid';
  let body = TYPE_TEXT[type];
  if (error.value !== undefined && !VALUE_OMITTED.has(type)) body += `: ${valueText(error.value)}`;
  if (error.message) body += `: ${error.message}`;
  return `${error.field}: ${body}`;
}

/**
 * The `Invalid` Status the API server itself answers with, as apimachinery's NewInvalid builds it.
 * `kind` is `WebApp`, `group` is `demo.example.org` (empty for the core group).
 */
export function invalidStatus(
  target: { group: string; kind: string; name: string },
  fieldErrors: readonly FieldError[],
): Status {
  const qualifiedKind = target.group ? `${target.kind}.${target.group}` : target.kind;
  return {
    kind: 'Status',
    status: 'Failure',
    code: 422,
    reason: 'Invalid',
    message: `${qualifiedKind} "${target.name}" is invalid: ${aggregate(fieldErrors)}`,
    details: {
      name: target.name,
      group: target.group,
      kind: target.kind,
      causes: fieldErrors.map((e) => ({
        reason: CAUSE_REASON[e.type ?? 'Invalid'],
        message: fieldErrorText(e).slice(e.field.length + 2),
        field: e.field,
      })),
    },
  };
}

function aggregate(fieldErrors: readonly FieldError[]): string {
  const texts = [...new Set(fieldErrors.map(fieldErrorText))];
  return texts.length === 1 ? (texts[0] as string) : `[${texts.join(', ')}]`;
}

function valueText(value: unknown): string {
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}
