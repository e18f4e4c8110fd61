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

/** Per-team limits for API-key requests by plan, with `RateLimit-*` headers on every key response. */
export function apiKeyRateLimit(limits: RateLimits): AfterAuthenticate {
  return async (_request, reply, principal) => {
    if (principal.type !== 'key') return;
    const result = await limits.consume(
      API_LIMITER,
      `team:${principal.teamId}`,
      principal.requestsPerMinute,
      60,
    );
    reply.headers({
      'ratelimit-limit': result.limit,
      'ratelimit-remaining': result.remaining,
      'ratelimit-reset': result.resetSeconds,
    });
    if (!result.allowed) throw errors.rateLimited(result.resetSeconds);
  };
}
