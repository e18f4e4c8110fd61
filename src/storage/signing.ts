import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a download token allows: GET of one key until `expiresAt` (unix seconds). */
export type GetTokenClaims = {
  method: 'GET';
  key: string;
  expiresAt: number;
  downloadName?: string;
  contentType?: string;
  /** `inline` (players, images) or `attachment` (save as); attachment when a name is given without it. */
  disposition?: 'inline' | 'attachment';
  /** An opaque mark the service handed out with the URL and wants back when the URL is fetched. */
  mark?: string;
};

/** What an upload token allows: PUT of one key, of one content type, of at most `maxBytes`, until `expiresAt`. */
export type PutTokenClaims = {
  method: 'PUT';
  key: string;
  expiresAt: number;
  maxBytes: number;
  contentType: string;
};

export type BlobTokenClaims = GetTokenClaims | PutTokenClaims;

export type TokenFailureReason = 'bad_signature' | 'expired' | 'malformed' | 'wrong_method';

export type VerifyTokenResult<M extends BlobTokenClaims['method']> =
  | { ok: true; claims: Extract<BlobTokenClaims, { method: M }> }
  | { ok: false; reason: TokenFailureReason };

export type VerifyTokenOptions<M extends BlobTokenClaims['method']> = {
  secret: string | Uint8Array;
  /** The method the request uses: a GET token never authorises a PUT and the other way round. */
  method: M;
  /** Milliseconds since the epoch, like Date.now. */
  now?: () => number;
};

// Binds signatures to this use, so a token signed with the same secret for something else never verifies here.
const CONTEXT = 'tmw.blob-token.v1.';
const MAX_TOKEN_LENGTH = 8192;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/;

type WirePayload = {
  m: 'GET' | 'PUT';
  k: string;
  e: number;
  s?: number;
  t?: string;
  n?: string;
  d?: 'inline' | 'attachment';
  g?: string;
};

function mac(secret: string | Uint8Array, encodedPayload: string): string {
  return createHmac('sha256', secret)
    .update(CONTEXT + encodedPayload)
    .digest('base64url');
}

function assertSecret(secret: string | Uint8Array): void {
  if (secret.length === 0) throw new TypeError('The signing secret must not be empty');
}

function toWire(claims: BlobTokenClaims): WirePayload {
  if (claims.method === 'PUT') {
    return { m: 'PUT', k: claims.key, e: claims.expiresAt, s: claims.maxBytes, t: claims.contentType };
  }
  const wire: WirePayload = { m: 'GET', k: claims.key, e: claims.expiresAt };
  if (claims.contentType !== undefined) wire.t = claims.contentType;
  if (claims.downloadName !== undefined) wire.n = claims.downloadName;
  if (claims.disposition !== undefined) wire.d = claims.disposition;
  if (claims.mark !== undefined) wire.g = claims.mark;
  return wire;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fromWire(value: unknown): BlobTokenClaims | undefined {
  if (!isRecord(value)) return undefined;
  const { m, k, e, s, t, n, d, g } = value;
  if (typeof k !== 'string' || k === '' || !Number.isSafeInteger(e)) return undefined;
  const expiresAt = e as number;
  if (m === 'PUT') {
    if (!Number.isSafeInteger(s) || (s as number) < 0 || typeof t !== 'string') return undefined;
    return { method: 'PUT', key: k, expiresAt, maxBytes: s as number, contentType: t };
  }
  if (m !== 'GET') return undefined;
  if ((t !== undefined && typeof t !== 'string') || (n !== undefined && typeof n !== 'string'))
    return undefined;
  if (d !== undefined && d !== 'inline' && d !== 'attachment') return undefined;
  if (g !== undefined && typeof g !== 'string') return undefined;
  const claims: GetTokenClaims = { method: 'GET', key: k, expiresAt };
  if (t !== undefined) claims.contentType = t;
  if (n !== undefined) claims.downloadName = n;
  if (d !== undefined) claims.disposition = d;
  if (g !== undefined) claims.mark = g;
  return claims;
}

/** A compact URL-safe token: base64url(JSON claims) "." base64url(HMAC-SHA256). */
export function signBlobToken(claims: BlobTokenClaims, secret: string | Uint8Array): string {
  assertSecret(secret);
  if (!Number.isSafeInteger(claims.expiresAt))
    throw new TypeError('expiresAt must be an integer (unix seconds)');
  const payload = Buffer.from(JSON.stringify(toWire(claims)), 'utf8').toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

/**
 * Checks a token in this order: its shape (`malformed`), its signature (`bad_signature`), the method it was
 * issued for (`wrong_method`), then its expiry (`expired`, from `expiresAt` on).
 */
export function verifyBlobToken<M extends BlobTokenClaims['method']>(
  token: string,
  options: VerifyTokenOptions<M>,
): VerifyTokenResult<M> {
  assertSecret(options.secret);
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !TOKEN_SHAPE.test(token)) {
    return { ok: false, reason: 'malformed' };
  }
  const [payload = '', signature = ''] = token.split('.');
  // The signature text itself is compared, so even a change in base64 padding bits fails.
  const expected = Buffer.from(mac(options.secret, payload), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'bad_signature' };
  }
  let claims: BlobTokenClaims | undefined;
  try {
    claims = fromWire(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    claims = undefined;
  }
  if (!claims) return { ok: false, reason: 'malformed' };
  if (claims.method !== options.method) return { ok: false, reason: 'wrong_method' };
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  if (nowSeconds >= claims.expiresAt) return { ok: false, reason: 'expired' };
  return { ok: true, claims: claims as Extract<BlobTokenClaims, { method: M }> };
}
