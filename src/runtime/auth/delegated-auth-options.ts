import { systemClock, type Clock } from '../clock/clock.ts';
import type { Transport } from '../client/transport.ts';
import { silentLogger, type Logger } from '../log/logger.ts';

/**
 * How requests are authenticated (TokenReview) and authorized (SubjectAccessReview) by the API
 * server. The identity of `transport` needs `create` on `tokenreviews` (authentication.k8s.io) and
 * `subjectaccessreviews` (authorization.k8s.io): Kubebuilder's metrics-auth role.
 */
export interface DelegatedAuthOptions {
  /** How to reach the API server, e.g. `transportFor(kubeConfig)`. Required. */
  transport: Transport;
  /** How long a TokenReview's answer, either way, is reused. Default: 60 000 (controller-runtime's). */
  authenticationTtl?: number;
  /** How long a SubjectAccessReview's answer, either way, is reused. Default: 10 000 (controller-runtime's). */
  authorizationTtl?: number;
  /** Most answers of each kind remembered; the least recently used go first. Default: 1024. */
  cacheSize?: number;
  /** Longest a review may take before the request is answered 500. Default: 10 000. */
  reviewTimeout?: number;
  /** Default: the system clock. */
  clock?: Clock;
  /** Where denied and failed requests are logged (at debug and error). Default: silentLogger. */
  logger?: Logger;
}

export type ResolvedDelegatedAuthOptions = Required<DelegatedAuthOptions>;

/** The one place the defaults above are applied. */
export function resolveDelegatedAuthOptions(options: DelegatedAuthOptions): ResolvedDelegatedAuthOptions {
  return {
    transport: options.transport,
    authenticationTtl: options.authenticationTtl ?? 60_000,
    authorizationTtl: options.authorizationTtl ?? 10_000,
    cacheSize: options.cacheSize ?? 1024,
    reviewTimeout: options.reviewTimeout ?? 10_000,
    clock: options.clock ?? systemClock,
    logger: options.logger ?? silentLogger,
  };
}
