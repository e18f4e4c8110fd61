import type { Db } from '../../db/client.ts';
import type { AfterAuthenticate, Authenticate, PrincipalIsActive } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import type { RateLimits } from '../../shared/rate-limits.ts';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import type { AccessTokens } from './access-tokens.ts';
import * as repo from './auth.repository.ts';
import type { ExternalTokens } from './external-tokens.ts';

type Parts = {
  db: Db;
  clock: Clock;
  apiKeys: ApiKeysService;
  accessTokens: AccessTokens;
  externalTokens?: ExternalTokens | undefined;
};

/**
 * Decides by prefix: a team API key, else one of our access tokens, else (when configured) a provider token.
 * Signatures are cached; revocation (logout, key revoke, account deletion) is looked up on every request.
 */
export function createAuthenticate({
  db,
  clock,
  apiKeys,
  accessTokens,
  externalTokens,
}: Parts): Authenticate {
  return async (token, options) => {
    if (apiKeys.isApiKey(token)) return options?.deferSession ? apiKeys.recall(token) : apiKeys.verify(token);
    const claims = (await accessTokens.verify(token)) ?? (await externalTokens?.verify(token)) ?? null;
    if (!claims) return null;
    const principal = { type: 'session' as const, userId: claims.userId, sessionId: claims.sessionId };
    if (options?.deferSession) return { ...principal, unconfirmed: true, verifiedAt: clock.now() };
    const active = await repo.isSessionActive(db, claims.sessionId, claims.userId, clock.now());
    return active ? principal : null;
  };
}

/** The session or key lookup of `createAuthenticate`, for reads that deferred it and did not do it themselves. */
export function createPrincipalIsActive({
  db,
  clock,
  apiKeys,
}: Pick<Parts, 'db' | 'clock' | 'apiKeys'>): PrincipalIsActive {
  return (principal) =>
    principal.type === 'key'
      ? apiKeys.isLive(principal.keyId)
      : repo.isSessionActive(db, principal.sessionId, principal.userId, clock.now());
}

const API_LIMITER = 'api';
const SESSION_LIMITER = 'session';
const WINDOW_SECONDS = 60;

/**
 * Request budgets per minute: a team's API keys share their plan's, a signed-in person's sessions share
 * `sessionPerMinute`. Counted in the shared counters (Redis when configured), so they hold across processes.
 * Every answer to such a request carries the count, in the IETF draft's fields (`RateLimit`,
 * `RateLimit-Policy`) and in the older `RateLimit-Limit/Remaining/Reset`; over it: 429 with `Retry-After`.
 */
export function requestRateLimits(limits: RateLimits, sessionPerMinute: number): AfterAuthenticate {
  return async (_request, reply, principal) => {
    const result =
      principal.type === 'key'
        ? await limits.consume(
            API_LIMITER,
            `team:${principal.teamId}`,
            principal.requestsPerMinute,
            WINDOW_SECONDS,
          )
        : await limits.consume(SESSION_LIMITER, `user:${principal.userId}`, sessionPerMinute, WINDOW_SECONDS);
    reply.headers({
      'ratelimit-policy': `"default";q=${result.limit};w=${WINDOW_SECONDS}`,
      ratelimit: `"default";r=${result.remaining};t=${result.resetSeconds}`,
      'ratelimit-limit': result.limit,
      'ratelimit-remaining': result.remaining,
      'ratelimit-reset': result.resetSeconds,
    });
    if (!result.allowed) throw errors.rateLimited(result.resetSeconds);
  };
}
