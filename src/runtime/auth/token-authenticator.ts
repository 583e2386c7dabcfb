import { createHash } from 'node:crypto';
import type { V1TokenReview, V1UserInfo } from '@kubernetes/client-node';
import type { ResolvedDelegatedAuthOptions } from './delegated-auth-options.ts';
import { TtlCache } from './ttl-cache.ts';

/** What a TokenReview said of a token: who it belongs to, or that it is not valid. */
export type TokenReviewAnswer = { authenticated: true; user: V1UserInfo } | { authenticated: false };

const TOKEN_REVIEWS = '/apis/authentication.k8s.io/v1/tokenreviews';

/**
 * Asks the API server who a bearer token belongs to (TokenReview), remembering answers briefly so
 * that a scrape every few seconds costs one review a minute.
 */
export class TokenAuthenticator {
  readonly #options: ResolvedDelegatedAuthOptions;
  readonly #cache: TtlCache<string, TokenReviewAnswer>;

  constructor(options: ResolvedDelegatedAuthOptions) {
    this.#options = options;
    this.#cache = new TtlCache(options.cacheSize, options.clock);
  }

  /** Rejects when the API server cannot be asked; an invalid token resolves unauthenticated. */
  authenticate(token: string): Promise<TokenReviewAnswer> {
    // Keyed by a digest: the cache need not hold the tokens themselves.
    const key = createHash('sha256').update(token).digest('base64');
    return this.#cache.getOrLoad(key, () => this.#review(token), this.#options.authenticationTtl);
  }

  async #review(token: string): Promise<TokenReviewAnswer> {
    const review = await this.#options.transport.request<V1TokenReview>({
      method: 'POST',
      path: TOKEN_REVIEWS,
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
      signal: AbortSignal.timeout(this.#options.reviewTimeout),
    });
    const user = review.status?.user;
    return review.status?.authenticated === true && user?.username
      ? { authenticated: true, user }
      : { authenticated: false };
  }
}
