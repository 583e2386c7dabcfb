import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendText, type RequestHandler } from '../server/http-server.ts';
import {
  resolveDelegatedAuthOptions,
  type DelegatedAuthOptions,
  type ResolvedDelegatedAuthOptions,
} from './delegated-auth-options.ts';
import { SubjectAccessReviewer } from './subject-access-reviewer.ts';
import { TokenAuthenticator } from './token-authenticator.ts';

/** Why a request is not served: its status and the body that says so. */
interface Refusal {
  readonly status: 401 | 403 | 500;
  readonly body: string;
}

const UNAUTHORIZED: Refusal = { status: 401, body: 'Unauthorized\n' };
const REVIEW_FAILED: Refusal = { status: 500, body: 'Authentication or authorization failed\n' };

/**
 * Serves `handler` only to callers the API server vouches for, as controller-runtime's
 * `filters.WithAuthenticationAndAuthorization`: the bearer token is checked with a TokenReview and
 * the caller's access with a SubjectAccessReview of the request's path and lower-cased method
 * (`get` on `/metrics`, which RBAC grants with `nonResourceURLs`). No or an invalid token is
 * answered 401, a caller without the permission 403, an API server that cannot answer 500.
 *
 * @example
 * ```ts
 * const handler = withAuthenticationAndAuthorization(serveMetrics, { transport: transportFor(kubeConfig) });
 * ```
 */
export function withAuthenticationAndAuthorization(
  handler: RequestHandler,
  options: DelegatedAuthOptions,
): RequestHandler {
  const resolved = resolveDelegatedAuthOptions(options);
  const authenticator = new TokenAuthenticator(resolved);
  const reviewer = new SubjectAccessReviewer(resolved);
  return async (req, res) => {
    const refusal = await check(req, authenticator, reviewer, resolved).catch((err: unknown): Refusal => {
      resolved.logger.error('could not authenticate or authorize a request', { err, path: req.url });
      return REVIEW_FAILED;
    });
    if (refusal === undefined) return handler(req, res);
    refuse(res, refusal);
  };
}

async function check(
  req: IncomingMessage,
  authenticator: TokenAuthenticator,
  reviewer: SubjectAccessReviewer,
  options: ResolvedDelegatedAuthOptions,
): Promise<Refusal | undefined> {
  const token = bearerToken(req.headers.authorization);
  if (token === undefined) return UNAUTHORIZED;
  const identity = await authenticator.authenticate(token);
  if (!identity.authenticated) {
    options.logger.debug('request with an invalid bearer token', { path: req.url });
    return UNAUTHORIZED;
  }
  const { pathname } = new URL(req.url ?? '/', 'https://server');
  const verb = (req.method ?? 'GET').toLowerCase();
  const decision = await reviewer.review(identity.user, { path: pathname, verb });
  if (decision.allowed) return undefined;
  const user = identity.user.username;
  options.logger.debug('request denied', { user, verb, path: pathname, reason: decision.reason });
  return { status: 403, body: `Authorization denied for user ${user}\n` };
}

/** The token of an `Authorization: Bearer <token>` header; the scheme is case-insensitive (RFC 9110). */
function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

function refuse(res: ServerResponse, refusal: Refusal): void {
  if (refusal.status === 401) res.setHeader('www-authenticate', 'Bearer');
  sendText(res, refusal.status, refusal.body);
}
