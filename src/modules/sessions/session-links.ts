import { isKeyInt } from '../../shared/cursor-values.ts';
import { errors } from '../../shared/errors.ts';
import { type SignedTokenFailure, TokenSigner } from '../../shared/signed-tokens.ts';

/** A join link's claims: the session. */
export type InviteClaims = { s: number };
/** A calendar feed's claims: the team, the member it was made for, and the feed's version. */
export type FeedClaims = { t: number; u: string; v: number };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is number => isKeyInt(value) && value > 0;

const isInvite = (value: unknown): value is InviteClaims => isRecord(value) && isId(value.s);
const isFeed = (value: unknown): value is FeedClaims =>
  isRecord(value) &&
  isId(value.t) &&
  isId(value.v) &&
  typeof value.u === 'string' &&
  /^[0-9a-f-]{36}$/.test(value.u);

/** The signers of the area's links: join links (they expire) and calendar feeds (revoked by rotation). */
export function sessionLinkSigners(secret: string) {
  return {
    invites: new TokenSigner(secret, 'session-invite', isInvite),
    feeds: new TokenSigner(secret, 'session-calendar', isFeed),
  };
}

export type SessionLinkSigners = ReturnType<typeof sessionLinkSigners>;

/** The answer to a link whose token does not verify: 403 like any other signed URL of the service. */
export const linkRefused = (reason: SignedTokenFailure) =>
  reason === 'expired' ? errors.signedUrlExpired() : errors.invalidSignature();
