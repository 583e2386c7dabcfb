import { MalformedRequestError } from './malformed-request-error.ts';

/** What every review (AdmissionReview, ConversionReview) is: a typed envelope around a request. */
export interface Review<Request extends { readonly uid: string }> {
  readonly apiVersion: string;
  readonly kind: string;
  readonly request: Request;
}

/**
 * Checks the envelope every review shares, a JSON object of `kind` at one of `apiVersions` whose
 * request has a uid, and returns the request; throws MalformedRequestError saying what is wrong.
 */
export function reviewRequest(
  body: unknown,
  kind: string,
  apiVersions: readonly string[],
): Record<string, unknown> {
  if (!isRecord(body)) throw new MalformedRequestError('the body is not a JSON object');
  if (body['kind'] !== kind || !apiVersions.includes(String(body['apiVersion']))) {
    throw new MalformedRequestError(
      `expected kind ${kind} of ${apiVersions.join(' or ')}, got ${String(body['apiVersion'])} ${String(body['kind'])}`,
    );
  }
  const request = body['request'];
  if (!isRecord(request)) throw new MalformedRequestError(`the ${kind} has no request`);
  if (typeof request['uid'] !== 'string' || request['uid'] === '')
    throw new MalformedRequestError(`the ${kind} request has no uid`);
  return request;
}

/** The review that answers `review`: its apiVersion and kind, and the request's uid in the response. */
export function reviewResponse<Response extends object>(
  review: Review<{ readonly uid: string }>,
  response: Response,
): { apiVersion: string; kind: string; response: Response & { uid: string } } {
  return {
    apiVersion: review.apiVersion,
    kind: review.kind,
    response: { uid: review.request.uid, ...response },
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
