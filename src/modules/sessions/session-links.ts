import { isKeyInt } from '../../shared/cursor-values.ts';
import { errors } from '../../shared/errors.ts';
import { type SignedTokenFailure, TokenSigner } from '../../shared/signed-tokens.ts';

/**
 * A join link's claims: the session, the session's link version it was made under (`v`), and when it was made
 * (`i`, unix milliseconds). Links made before versions carry neither: version 1, made at the epoch.
 */
export type InviteClaims = { s: number; v?: number; i?: number };
/** A calendar feed's claims: the team, the member it was made for, and the feed's version. */
export type FeedClaims = { t: number; u: string; v: number };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is number => isKeyInt(value) && value > 0;

const isInvite = (value: unknown): value is InviteClaims =>
  isRecord(value) &&
  isId(value.s) &&
  (value.v === undefined || isId(value.v)) &&
  (value.i === undefined || (Number.isSafeInteger(value.i) && (value.i as number) >= 0));
const isFeed = (value: unknown): value is FeedClaims =>
  isRecord(value) &&
  isId(value.t) &&
  isId(value.v) &&
  typeof value.u === 'string' &&
  /^[0-9a-f-]{36}$/.test(value.u);

/** The signers of the area's links: join links (they expire, and rotate per session) and calendar feeds (revoked by rotation). */
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
