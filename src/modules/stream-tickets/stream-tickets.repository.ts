import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { streamTickets } from '../../db/schema/index.ts';

/** Stores a new ticket, and clears the expired ones of everyone (they open nothing any more). */
export async function insertTicket(
  db: Db,
  ticket: {
    tokenHash: string;
    stream: string;
    userId: string;
    sessionId: string;
    expiresAt: Date;
    now: Date;
  },
): Promise<void> {
  const { now, ...row } = ticket;
  await db.delete(streamTickets).where(lt(streamTickets.expiresAt, now));
  await db.insert(streamTickets).values({ ...row, createdAt: now });
}

/** Uses a ticket up: it is deleted whether or not it has expired, so it opens at most one stream. */
export async function takeTicket(
  db: Db,
  tokenHash: string,
  stream: string,
): Promise<{ userId: string; sessionId: string; expiresAt: Date } | undefined> {
  const [row] = await db
    .delete(streamTickets)
    .where(and(eq(streamTickets.tokenHash, tokenHash), eq(streamTickets.stream, stream)))
    .returning({
      userId: streamTickets.userId,
      sessionId: streamTickets.sessionId,
      expiresAt: streamTickets.expiresAt,
    });
  return row;
}
