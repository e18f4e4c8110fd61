import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import { ConfigError } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import { sqlState } from '../../shared/db-errors.ts';
import { growingLru } from '../../shared/growing-lru.ts';
import { sha256 } from '../../shared/hash.ts';
import type { AccessClaims } from './access-tokens.ts';
import * as repo from './auth.repository.ts';

export type ExternalProvider = { issuer: string; jwksUrl: string; audience: string };

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'EdDSA'];

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/**
 * The key set decides which tokens are genuine, so it must come over TLS. Plain http is accepted only
 * for a loopback host (a provider on the same machine, and tests), where nobody can sit in between.
 */
function jwksAddress(jwksUrl: string): URL {
  const url = new URL(jwksUrl);
  if (url.protocol === 'https:') return url;
  const loopback = LOOPBACK_HOSTS.has(url.hostname) || /^127(\.\d{1,3}){3}$/.test(url.hostname);
  if (url.protocol === 'http:' && loopback) return url;
  throw new ConfigError([
    `OIDC_JWKS_URL: must use https (plain http only to a loopback host), got ${url.href}`,
  ]);
}

/**
 * The session of one provider token: derived from the token, so every process names it alike and a
 * logout through any of them ends it for all (RFC 9562 version 8, "custom", layout).
 */
function sessionIdOf(token: string): string {
  const h = sha256(token);
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Trusts an OpenID Connect provider: its tokens are verified against its JWKS (cached, refetched on an
 * unknown `kid` at most every 30 s) and their user is provisioned on first sight, from a first token whose
 * `email_verified` is true (the account is then known by its subject; later tokens need no e-mail). Each token gets a
 * session row on first sight, so logout and account deletion end it like one of our own sessions.
 */
export class ExternalTokens {
  private readonly jwks;
  private readonly cache = growingLru<string, AccessClaims>({ maxEntries: 50_000 });

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly provider: ExternalProvider,
  ) {
    this.jwks = createRemoteJWKSet(jwksAddress(provider.jwksUrl), {
      cooldownDuration: 30_000,
      cacheMaxAge: 600_000,
    });
  }

  /** The user and session of a valid provider token, or null. Whether the session is live is not checked here. */
  async verify(token: string): Promise<AccessClaims | null> {
    const nowMs = this.clock.now().getTime();
    const cached = this.cache.get(token);
    if (cached) {
      if (cached.expiresAt * 1000 > nowMs) return cached;
      this.cache.delete(token);
      return null;
    }
    let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
    try {
      ({ payload } = await jwtVerify(token, this.jwks, {
        algorithms: ALGORITHMS,
        issuer: this.provider.issuer,
        audience: this.provider.audience,
        currentDate: new Date(nowMs),
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      // Invalid tokens, and a provider that cannot be reached (fetch failures are TypeErrors).
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
      throw error;
    }
    const userId = await this.provision(payload.sub!, payload.email, payload.email_verified, payload.name);
    if (!userId) return null;
    const claims = { userId, sessionId: sessionIdOf(token), expiresAt: payload.exp! };
    await repo.ensureSession(this.db, {
      id: claims.sessionId,
      userId,
      expiresAt: new Date(claims.expiresAt * 1000),
    });
    this.cache.set(token, claims);
    return claims;
  }

  private async provision(subject: string, email: unknown, emailVerified: unknown, name: unknown) {
    const externalSubject = `${this.provider.issuer}|${subject}`;
    const known = await repo.findUserByExternalSubject(this.db, externalSubject);
    if (known) return known.id;
    // An address the provider does not vouch for would claim it here (invites are accepted by address):
    // such a first token is refused, for a new account as for linking an existing one.
    if (emailVerified !== true || typeof email !== 'string' || !email.includes('@')) return null;
    const sameEmail = await repo.findUserByEmail(this.db, email);
    if (sameEmail) {
      // Provisioned by another first request of this subject between the two lookups.
      if (sameEmail.externalSubject === externalSubject) return sameEmail.id;
      if (sameEmail.externalSubject) return null;
      if (await repo.linkExternalSubject(this.db, sameEmail.id, externalSubject, this.clock.now()))
        return sameEmail.id;
      // Linked at the same moment by another request: to this subject is fine, to another is not.
      return (await repo.findUserByExternalSubject(this.db, externalSubject))?.id ?? null;
    }
    try {
      const user = await repo.insertUser(this.db, {
        email,
        name: typeof name === 'string' ? name : null,
        externalSubject,
        // Only a token with `email_verified: true` reaches this point.
        emailVerifiedAt: this.clock.now(),
      });
      return user.id;
    } catch (error) {
      // Two first requests at once: the other one provisioned the user.
      if (sqlState(error) === '23505')
        return (await repo.findUserByExternalSubject(this.db, externalSubject))?.id ?? null;
      throw error;
    }
  }
}
