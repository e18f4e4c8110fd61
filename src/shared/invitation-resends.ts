import { errors } from './errors.ts';
import type { RateLimits } from './rate-limits.ts';

/** Mails of one invitation per hour: a person who lost the first one gets more, an inbox is not flooded. */
export const RESENDS_PER_INVITATION = 3;
/** Resent mails per hour of one team, organisation or session: one manager cannot mail-bomb through many. */
export const RESENDS_PER_SENDER = 30;
const WINDOW_SECONDS = 3600;
const PER_INVITATION = 'invitation_resends';
const PER_SENDER = 'invitation_resend_budget';

/**
 * Counts one resend of `invitation` (e.g. `team_invite:12`) against its own budget and the budget of
 * `sender` (e.g. `team:3`); 429 with Retry-After when either is spent, and then nothing is counted.
 */
export async function takeResend(limits: RateLimits, invitation: string, sender: string): Promise<void> {
  const own = await limits.consume(PER_INVITATION, invitation, RESENDS_PER_INVITATION, WINDOW_SECONDS);
  if (!own.allowed) {
    await limits.refund(PER_INVITATION, invitation, RESENDS_PER_INVITATION, WINDOW_SECONDS);
    throw errors.rateLimited(own.resetSeconds);
  }
  const shared = await limits.consume(PER_SENDER, sender, RESENDS_PER_SENDER, WINDOW_SECONDS);
  if (!shared.allowed) {
    await limits.refund(PER_SENDER, sender, RESENDS_PER_SENDER, WINDOW_SECONDS);
    await limits.refund(PER_INVITATION, invitation, RESENDS_PER_INVITATION, WINDOW_SECONDS);
    throw errors.rateLimited(shared.resetSeconds);
  }
}

/** Gives a counted resend back (it was refused further on, or failed). */
export async function refundResend(limits: RateLimits, invitation: string, sender: string): Promise<void> {
  await limits.refund(PER_INVITATION, invitation, RESENDS_PER_INVITATION, WINDOW_SECONDS);
  await limits.refund(PER_SENDER, sender, RESENDS_PER_SENDER, WINDOW_SECONDS);
}
