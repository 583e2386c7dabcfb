import type { V1SubjectAccessReview, V1UserInfo } from '@kubernetes/client-node';
import type { ResolvedDelegatedAuthOptions } from './delegated-auth-options.ts';
import { TtlCache } from './ttl-cache.ts';

/** A request to a non-resource URL, as RBAC's `nonResourceURLs` rules see it. */
export interface NonResourceRequest {
  /** e.g. `/metrics`. */
  readonly path: string;
  /** The HTTP method lower-cased, e.g. `get`. */
  readonly verb: string;
}

/** Whether a user may do something, and the authorizer's reason when it says no. */
export interface AccessDecision {
  readonly allowed: boolean;
  readonly reason?: string;
}

const SUBJECT_ACCESS_REVIEWS = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

/** Asks the API server (SubjectAccessReview) whether a user may request a non-resource URL. */
export class SubjectAccessReviewer {
  readonly #options: ResolvedDelegatedAuthOptions;
  readonly #cache: TtlCache<string, AccessDecision>;

  constructor(options: ResolvedDelegatedAuthOptions) {
    this.#options = options;
    this.#cache = new TtlCache(options.cacheSize, options.clock);
  }

  /** Rejects when the API server cannot be asked. */
  review(user: V1UserInfo, request: NonResourceRequest): Promise<AccessDecision> {
    const spec = {
      user: user.username,
      ...(user.uid ? { uid: user.uid } : {}),
      groups: user.groups ?? [],
      ...(user.extra ? { extra: user.extra } : {}),
      nonResourceAttributes: { path: request.path, verb: request.verb },
    };
    const load = (): Promise<AccessDecision> => this.#ask(spec);
    return this.#cache.getOrLoad(JSON.stringify(spec), load, this.#options.authorizationTtl);
  }

  async #ask(spec: V1SubjectAccessReview['spec']): Promise<AccessDecision> {
    const review = await this.#options.transport.request<V1SubjectAccessReview>({
      method: 'POST',
      path: SUBJECT_ACCESS_REVIEWS,
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec },
      signal: AbortSignal.timeout(this.#options.reviewTimeout),
    });
    const allowed = review.status?.allowed === true && review.status.denied !== true;
    const reason = review.status?.reason;
    return reason ? { allowed, reason } : { allowed };
  }
}
