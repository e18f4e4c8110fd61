import { createHash, randomBytes } from 'node:crypto';

/** SHA-256 hex digest: for high-entropy secrets (API keys, refresh tokens) a slow hash adds nothing. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A URL-safe random token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
