import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../../shared/hash.ts';

const PUBLIC_ID_LENGTH = 22;
const MAC_BYTES = 16;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{44}$/;
const CONTEXT = 'tmw.share-link.v1.';

/**
 * The tokens of review links: a random public id (stored, to find the way in) followed by a MAC of it under
 * the service's signing secret (never stored). The team can show a link's URL again at any time, and a copy of
 * the database alone opens no link.
 */
export class ShareLinkTokens {
  constructor(private readonly secret: string) {
    if (secret.length === 0) throw new TypeError('The signing secret must not be empty');
  }

  /** A new public id for a way into a link. */
  newPublicId(): string {
    return randomToken((PUBLIC_ID_LENGTH * 6) / 8);
  }

  /** The token of the way in with this public id. */
  tokenOf(publicId: string): string {
    return publicId + this.mac(publicId);
  }

  /** The public id a token names, or undefined when the token is not one this service made. */
  publicIdOf(token: string): string | undefined {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    const publicId = token.slice(0, PUBLIC_ID_LENGTH);
    const expected = Buffer.from(this.mac(publicId), 'utf8');
    const given = Buffer.from(token.slice(PUBLIC_ID_LENGTH), 'utf8');
    return expected.length === given.length && timingSafeEqual(expected, given) ? publicId : undefined;
  }

  private mac(publicId: string): string {
    return createHmac('sha256', this.secret)
      .update(CONTEXT + publicId)
      .digest()
      .subarray(0, MAC_BYTES)
      .toString('base64url');
  }
}
