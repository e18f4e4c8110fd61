import type { Db } from '../../db/client.ts';
import type { Principal, PrincipalIsActive, SessionPrincipal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { randomToken, sha256 } from '../../shared/hash.ts';
import { insertTicket, takeTicket } from './stream-tickets.repository.ts';

/** How long a ticket may wait to be used: long enough to open a stream, short enough to be useless in a log. */
export const TICKET_TTL_SECONDS = 60;
const TICKET = /^[A-Za-z0-9_-]{43}$/;

/**
 * Tickets that open an event stream in place of a bearer token, for clients that cannot set a header
 * (`EventSource`). Kept in the database (hashed), so a ticket asked of one process opens a stream on any.
 */
export class StreamTickets {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly principalIsActive: PrincipalIsActive,
  ) {}

  /** A new single-use ticket for `stream`, standing for the caller's session for 60 seconds. */
  async issue(principal: SessionPrincipal, stream: string): Promise<{ ticket: string; expiresAt: Date }> {
    const ticket = randomToken(32);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + TICKET_TTL_SECONDS * 1000);
    await insertTicket(this.db, {
      tokenHash: sha256(ticket),
      stream,
      userId: principal.userId,
      sessionId: principal.sessionId,
      expiresAt,
      now,
    });
    return { ticket, expiresAt };
  }

  /** The session a ticket stands for, using it up; null when it is unknown, used, expired or its session ended. */
  async redeem(ticket: string, stream: string): Promise<Principal | null> {
    if (!TICKET.test(ticket)) return null;
    const row = await takeTicket(this.db, sha256(ticket), stream);
    if (!row || row.expiresAt.getTime() <= this.clock.now().getTime()) return null;
    const principal: Principal = { type: 'session', userId: row.userId, sessionId: row.sessionId };
    return (await this.principalIsActive(principal)) ? principal : null;
  }
}
