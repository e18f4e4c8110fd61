import { and, asc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { domainEvents, eventConsumers } from '../db/schema/index.ts';

/** An event read back from the log, with the position its commit gave it. */
export type LoggedEvent = typeof domainEvents.$inferSelect & { position: number };

/** The committed events after `position`, in commit order. */
export function eventsAfter(db: Db, position: number, limit: number): Promise<LoggedEvent[]> {
  return db
    .select()
    .from(domainEvents)
    .where(and(isNotNull(domainEvents.position), gt(domainEvents.position, position)))
    .orderBy(asc(domainEvents.position))
    .limit(limit) as Promise<LoggedEvent[]>;
}

/** The last position given, 0 when none was. */
export async function lastPosition(db: Db): Promise<number> {
  const [row] = await db
    .select({ last: sql<string | null>`max(${domainEvents.position})` })
    .from(domainEvents);
  return row?.last == null ? 0 : Number(row.last);
}

/**
 * Takes the place of consumer `name` for this transaction (made at `start` the first time): answers its
 * position, or null while another transaction holds it (another process is reading for it).
 */
export async function claimConsumer(
  db: Db,
  name: string,
  start: () => Promise<number>,
): Promise<number | null> {
  const [held] = await db
    .select({ position: eventConsumers.position })
    .from(eventConsumers)
    .where(eq(eventConsumers.name, name))
    .for('update', { skipLocked: true });
  if (held) return held.position;
  const [made] = await db
    .insert(eventConsumers)
    .values({ name, position: await start() })
    .onConflictDoNothing()
    .returning({ position: eventConsumers.position });
  return made?.position ?? null;
}

export async function advanceConsumer(db: Db, name: string, position: number, now: Date): Promise<void> {
  await db.update(eventConsumers).set({ position, updatedAt: now }).where(eq(eventConsumers.name, name));
}
