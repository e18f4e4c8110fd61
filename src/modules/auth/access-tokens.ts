import { createSecretKey, randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../shared/clock.ts';
import { growingLru } from '../../shared/growing-lru.ts';

export type AccessClaims = { userId: string; sessionId: string; expiresAt: number };

type Options = { secret: string; issuer: string; audience: string; ttlSeconds: number; clock: Clock };

const TOKEN_USE = 'access';
// Users and sessions are UUIDs; anything else would reach the database as a malformed uuid.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * Issues and verifies the service's own short-lived access tokens (HS256 JWTs).
 * The key is imported once; a verified token is cached until it expires, so the hot path skips the crypto.
 */
export class AccessTokens {
  private readonly key;
  private readonly cache = growingLru<string, AccessClaims>({ maxEntries: 50_000 });

  constructor(private readonly options: Options) {
    this.key = createSecretKey(Buffer.from(options.secret, 'utf8'));
  }

  get ttlSeconds(): number {
    return this.options.ttlSeconds;
  }

  async issue(userId: string, sessionId: string): Promise<string> {
    const now = Math.floor(this.options.clock.now().getTime() / 1000);
    return new SignJWT({ sid: sessionId, token_use: TOKEN_USE })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(this.options.issuer)
      .setAudience(this.options.audience)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + this.options.ttlSeconds)
      .setJti(randomUUID())
      .sign(this.key);
  }

  /** The claims of a valid token, or null (bad signature, algorithm, issuer, audience, time, or kind). */
  async verify(token: string): Promise<AccessClaims | null> {
    const nowMs = this.options.clock.now().getTime();
    const cached = this.cache.get(token);
    if (cached) {
      if (cached.expiresAt * 1000 > nowMs) return cached;
      this.cache.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: this.options.issuer,
        audience: this.options.audience,
        currentDate: new Date(nowMs),
        requiredClaims: ['sub', 'exp', 'iat', 'nbf'],
      });
      if (payload.token_use !== TOKEN_USE || !isUuid(payload.sid) || !isUuid(payload.sub)) return null;
      const claims = { userId: payload.sub, sessionId: payload.sid, expiresAt: payload.exp! };
      this.cache.set(token, claims);
      return claims;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
      throw error;
    }
  }
}
