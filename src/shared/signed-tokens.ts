import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignedTokenFailure = 'malformed' | 'bad_signature' | 'expired';

export type SignedTokenCheck<T> = { ok: true; claims: T } | { ok: false; reason: SignedTokenFailure };

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,1024}\.[A-Za-z0-9_-]{43}$/;

/**
 * Compact signed tokens for links the service hands out (join links, calendar feeds): base64url(JSON claims)
 * "." base64url(HMAC-SHA256). Each signer is bound to one purpose, so a token made for one use never verifies
 * for another, even under the same secret. `exp` (unix seconds) makes a token expire; without it, it does not.
 */
export class TokenSigner<T extends Record<string, unknown>> {
  private readonly context: string;

  constructor(
    private readonly secret: string,
    purpose: string,
    private readonly isClaims: (value: unknown) => value is T,
  ) {
    if (secret.length === 0) throw new TypeError('The signing secret must not be empty');
    this.context = `tmw.${purpose}.v1.`;
  }

  sign(claims: T, expiresAt?: Date): string {
    const body = expiresAt ? { ...claims, exp: Math.floor(expiresAt.getTime() / 1000) } : claims;
    const payload = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** Checks, in this order, the token's shape, its signature, its claims and its expiry at `now`. */
  verify(token: string, now: Date): SignedTokenCheck<T> {
    if (!TOKEN_SHAPE.test(token)) return { ok: false, reason: 'malformed' };
    const [payload = '', signature = ''] = token.split('.');
    const expected = Buffer.from(this.mac(payload), 'utf8');
    const given = Buffer.from(signature, 'utf8');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      return { ok: false, reason: 'bad_signature' };
    }
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    if (!this.isClaims(value)) return { ok: false, reason: 'malformed' };
    const exp = (value as { exp?: unknown }).exp;
    if (exp !== undefined && (typeof exp !== 'number' || Math.floor(now.getTime() / 1000) >= exp)) {
      return { ok: false, reason: 'expired' };
    }
    return { ok: true, claims: value };
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.secret)
      .update(this.context + payload)
      .digest('base64url');
  }
}
