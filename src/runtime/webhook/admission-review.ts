import type { KubeObject } from '../api/kube-object.ts';
import type { Status } from '../client/api-error.ts';
import { MalformedRequestError } from './malformed-request-error.ts';
import { isRecord, reviewRequest, type Review } from './review-envelope.ts';

/** The operations admission webhooks see. */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** What the API server asks an admission webhook about: the `request` of an AdmissionReview v1. */
export interface AdmissionRequest<T extends KubeObject = KubeObject> {
  readonly uid: string;
  /** The kind of `object`, as the webhook registered for it. */
  readonly kind: { readonly group: string; readonly version: string; readonly kind: string };
  readonly resource: { readonly group: string; readonly version: string; readonly resource: string };
  readonly subResource?: string;
  readonly name?: string;
  readonly namespace?: string;
  readonly operation: AdmissionOperation;
  readonly userInfo: {
    readonly username?: string;
    readonly uid?: string;
    readonly groups?: readonly string[];
    readonly extra?: Readonly<Record<string, readonly string[]>>;
  };
  /** The new object (CREATE, UPDATE). */
  readonly object?: T;
  /** The existing object (UPDATE, DELETE). */
  readonly oldObject?: T;
  readonly dryRun?: boolean;
  readonly options?: unknown;
}

/** A webhook's answer, without the uid the server copies from the request. */
export interface AdmissionResponse {
  readonly allowed: boolean;
  /** Why it was refused: the message reaches the client. */
  readonly status?: Status;
  /** Base64 of an RFC 6902 JSON patch. */
  readonly patch?: string;
  readonly patchType?: 'JSONPatch';
  /** Shown to the client (kubectl prints them as `Warning: ...`). */
  readonly warnings?: readonly string[];
}

/** Answers one admission request: what `webhookServer.register(path, handler)` serves. */
export type AdmissionHandler = (req: AdmissionRequest) => Promise<AdmissionResponse>;

/** An AdmissionReview as read from the API server. */
export type AdmissionReview = Review<AdmissionRequest>;

/** The review versions the API server may send; the answer uses the request's. */
const REVIEW_VERSIONS = ['admission.k8s.io/v1', 'admission.k8s.io/v1beta1'];
const OPERATIONS = new Set<string>(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']);

/** Checks that `body` is an AdmissionReview with a request; throws MalformedRequestError saying what is wrong. */
export function parseAdmissionReview(body: unknown): AdmissionReview {
  const request = reviewRequest(body, 'AdmissionReview', REVIEW_VERSIONS);
  if (!OPERATIONS.has(String(request['operation'])))
    throw new MalformedRequestError(`unknown operation ${JSON.stringify(request['operation'])}`);
  if (!isRecord(request['kind'])) throw new MalformedRequestError('the AdmissionReview request has no kind');
  return body as AdmissionReview;
}
