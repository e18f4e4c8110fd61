import { TokenSigner } from '../../../shared/signed-tokens.ts';

/** How long an unlocked link stays open to the guest without the password. */
export const GUEST_TOKEN_SECONDS = 60 * 60;

/** The claims of a guest token: the way in it unlocks and the password version it was unlocked with. */
type GuestClaims = { r: number; v: number };

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isGuestClaims = (value: unknown): value is GuestClaims =>
  typeof value === 'object' &&
  value !== null &&
  isCount((value as GuestClaims).r) &&
  isCount((value as GuestClaims).v);

/**
 * The tokens a guest gets by unlocking a link with its password: bound to one way in and to the link's password
 * version, so changing (or removing) the password ends every token given out before.
 */
export class GuestTokens {
  private readonly signer: TokenSigner<GuestClaims>;

  constructor(secret: string) {
    this.signer = new TokenSigner(secret, 'share-guest', isGuestClaims);
  }

  issue(recipientId: number, passwordVersion: number, now: Date) {
    const expiresAt = new Date(Math.floor(now.getTime() / 1000) * 1000 + GUEST_TOKEN_SECONDS * 1000);
    return { guestToken: this.signer.sign({ r: recipientId, v: passwordVersion }, expiresAt), expiresAt };
  }

  /** Whether `token` unlocks this way in at this password version now. */
  unlocks(token: string | undefined, recipientId: number, passwordVersion: number, now: Date): boolean {
    if (!token) return false;
    const checked = this.signer.verify(token, now);
    return checked.ok && checked.claims.r === recipientId && checked.claims.v === passwordVersion;
  }
}
