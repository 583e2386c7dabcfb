import type { KubeObject } from '../api/kube-object.ts';
import { MalformedRequestError } from './malformed-request-error.ts';
import { isRecord, reviewRequest, type Review } from './review-envelope.ts';

/** A ConversionReview v1 as read from the API server. */
export type ConversionReview = Review<{
  readonly uid: string;
  readonly desiredAPIVersion: string;
  readonly objects: readonly KubeObject[];
}>;

/** The answer: every object converted, or a Failure with the reason. */
export type ConversionResponse =
  | {
      readonly convertedObjects: readonly KubeObject[];
      readonly result: { readonly status: 'Success' };
    }
  | {
      readonly convertedObjects: readonly [];
      readonly result: { readonly status: 'Failure'; readonly message: string };
    };

/** Checks that `body` is a ConversionReview v1 with a request; throws MalformedRequestError saying what is wrong. */
export function parseConversionReview(body: unknown): ConversionReview {
  const request = reviewRequest(body, 'ConversionReview', ['apiextensions.k8s.io/v1']);
  if (typeof request['desiredAPIVersion'] !== 'string')
    throw new MalformedRequestError('the ConversionReview request has no desiredAPIVersion');
  const objects = request['objects'];
  if (!Array.isArray(objects) || !objects.every(isRecord))
    throw new MalformedRequestError('the ConversionReview request has no list of objects');
  return body as ConversionReview;
}
