import { and, desc, eq, gt, isNotNull, isNull, lt, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { invites, users } from '../../db/schema/index.ts';
import { sameEmail } from '../../shared/email.ts';

export type InviteRow = typeof invites.$inferSelect;

const sentTo = (email: string) => sameEmail(invites.email, email);
/** Neither accepted nor declined (it may still have expired). */
const unanswered = () => and(isNull(invites.acceptedAt), isNull(invites.declinedAt));

export async function insertInvite(db: Db, values: typeof invites.$inferInsert): Promise<InviteRow> {
  const [row] = await db.insert(invites).values(values).returning();
  return row!;
}

/** Invites neither accepted, declined nor expired, newest first, after the invite id `before`. */
export function listPendingInvites(db: Db, teamId: number, now: Date, limit: number, before?: number) {
  return db
    .select()
    .from(invites)
    .where(
      and(
        eq(invites.teamId, teamId),
        unanswered(),
        gt(invites.expiresAt, now),
        before ? lt(invites.id, before) : undefined,
      ),
    )
    .orderBy(desc(invites.id))
    .limit(limit);
}

/** Withdraws an invite that was not accepted; false when there is none. */
export async function deleteOpenInvite(db: Db, teamId: number, inviteId: number): Promise<boolean> {
  const rows = await db
    .delete(invites)
    .where(and(eq(invites.id, inviteId), eq(invites.teamId, teamId), isNull(invites.acceptedAt)))
    .returning({ id: invites.id });
  return rows.length > 0;
}

/** Drops the address's expired or declined, never accepted invites: they only block a new one. */
export async function clearExpiredInvites(db: Db, teamId: number, email: string, now: Date): Promise<void> {
  await db
    .delete(invites)
    .where(
      and(
        eq(invites.teamId, teamId),
        sentTo(email),
        isNull(invites.acceptedAt),
        or(lte(invites.expiresAt, now), isNotNull(invites.declinedAt)),
      ),
    );
}

export async function hasOpenInvite(db: Db, teamId: number, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: invites.id })
    .from(invites)
    .where(and(eq(invites.teamId, teamId), sentTo(email), unanswered()))
    .limit(1);
  return row !== undefined;
}

export async function findInviteByToken(db: Db, token: string): Promise<InviteRow | undefined> {
  const [row] = await db.select().from(invites).where(eq(invites.token, token)).limit(1);
  return row;
}

/** Spends the invite for `userId`; false when another request spent it first or it has expired. */
export async function claimInvite(db: Db, inviteId: number, userId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(invites)
    .set({ acceptedAt: now, acceptedBy: userId })
    .where(and(eq(invites.id, inviteId), unanswered(), gt(invites.expiresAt, now)))
    .returning({ id: invites.id });
  return rows.length > 0;
}

/** Turns an open invite down; false when it was answered meanwhile or has expired. */
export async function declineInvite(db: Db, inviteId: number, now: Date): Promise<InviteRow | undefined> {
  const [row] = await db
    .update(invites)
    .set({ declinedAt: now })
    .where(and(eq(invites.id, inviteId), unanswered(), gt(invites.expiresAt, now)))
    .returning();
  return row;
}

export async function findUserEmail(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.email;
}
