import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { ApiKeysService } from './modules/api-keys/api-keys.service.ts';
import { AccessTokens } from './modules/auth/access-tokens.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { apiKeyRateLimit, createAuthenticate } from './modules/auth/authenticator.ts';
import { ExternalTokens } from './modules/auth/external-tokens.ts';
import { createTeamsServices } from './modules/teams/teams.services.ts';
import { createUsersServices } from './modules/users/users.service.ts';
import type { Clock } from './shared/clock.ts';
import { RateLimits } from './shared/rate-limits.ts';
import type { Secrets } from './shared/secrets.ts';

/** The long-lived services of one process, wired once from its configuration. */
export function createServices({
  config,
  db,
  clock,
  secrets,
}: {
  config: Config;
  db: Db;
  clock: Clock;
  secrets: Secrets;
}) {
  const limits = RateLimits.connect(config.redisUrl);
  const accessTokens = new AccessTokens({
    secret: secrets.tokenSecret,
    issuer: config.auth.issuer,
    audience: config.auth.audience,
    ttlSeconds: config.auth.accessTokenTtlSeconds,
    clock,
  });
  const externalTokens = config.auth.oidc ? new ExternalTokens(db, clock, config.auth.oidc) : undefined;
  const apiKeys = new ApiKeysService(db, clock, config.apiKeyPrefix);
  const auth = new AuthService(db, clock, accessTokens, limits, config.auth);
  return {
    apiKeys,
    auth,
    accessTokens,
    limits,
    ...createTeamsServices(db, clock),
    users: createUsersServices(db, clock),
    authenticate: createAuthenticate({ db, clock, apiKeys, accessTokens, externalTokens }),
    afterAuthenticate: apiKeyRateLimit(limits),
    /** Resolves once shared counters (Redis) take commands, or gave up connecting (memory then). */
    ready: () => limits.ready(),
    close: () => limits.close(),
  };
}

export type Services = ReturnType<typeof createServices>;
