import type { KubernetesObject } from '@kubernetes/client-node';
import { isRecord } from './admission-review.ts';
import { MalformedRequestError } from './malformed-request-error.ts';

/** A ConversionReview v1 as read from the API server. */
export interface ConversionReview {
  readonly apiVersion: 'apiextensions.k8s.io/v1';
  readonly kind: 'ConversionReview';
  readonly request: {
    readonly uid: string;
    readonly desiredAPIVersion: string;
    readonly objects: readonly KubernetesObject[];
  };
}

/** The answer: every object converted, or a Failure with the reason. */
export type ConversionResponse =
  | {
      readonly convertedObjects: readonly KubernetesObject[];
      readonly result: { readonly status: 'Success' };
    }
  | {
      readonly convertedObjects: readonly [];
      readonly result: { readonly status: 'Failure'; readonly message: string };
    };

/** Checks that `body` is a ConversionReview v1 with a request; throws MalformedRequestError saying what is wrong. */
export function parseConversionReview(body: unknown): ConversionReview {
  if (!isRecord(body)) throw new MalformedRequestError('the body is not a JSON object');
  if (body['kind'] !== 'ConversionReview' || body['apiVersion'] !== 'apiextensions.k8s.io/v1') {
    throw new MalformedRequestError(
      `expected an apiextensions.k8s.io/v1 ConversionReview, got ${String(body['apiVersion'])} ${String(body['kind'])}`,
    );
  }
  const request = body['request'];
  if (!isRecord(request)) throw new MalformedRequestError('the ConversionReview has no request');
  if (typeof request['uid'] !== 'string' || request['uid'] === '')
    throw new MalformedRequestError('the ConversionReview request has no uid');
  if (typeof request['desiredAPIVersion'] !== 'string')
    throw new MalformedRequestError('the ConversionReview request has no desiredAPIVersion');
  const objects = request['objects'];
  if (!Array.isArray(objects) || !objects.every(isRecord))
    throw new MalformedRequestError('the ConversionReview request has no list of objects');
  return body as unknown as ConversionReview;
}

/** The ConversionReview that answers `review`. */
export function conversionReviewResponse(
  review: ConversionReview,
  response: ConversionResponse,
): { apiVersion: string; kind: 'ConversionReview'; response: ConversionResponse & { uid: string } } {
  return {
    apiVersion: review.apiVersion,
    kind: 'ConversionReview',
    response: { uid: review.request.uid, ...response },
  };
}
