import { and, desc, eq, gt, isNotNull, isNull, lt, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { invites, teams, users } from '../../db/schema/index.ts';
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

/** The invite whose token hashes to `tokenHash` (tokens are kept hashed). */
export async function findInviteByTokenHash(db: Db, tokenHash: string): Promise<InviteRow | undefined> {
  const [row] = await db.select().from(invites).where(eq(invites.tokenHash, tokenHash)).limit(1);
  return row;
}

export async function findInvite(db: Db, inviteId: number): Promise<InviteRow | undefined> {
  const [row] = await db.select().from(invites).where(eq(invites.id, inviteId)).limit(1);
  return row;
}

/**
 * Gives an open invite a new token (the old one stops working) and a new expiry; undefined when it was
 * answered or withdrawn meanwhile.
 */
export async function renewInvite(
  db: Db,
  inviteId: number,
  values: { tokenHash: string; expiresAt: Date },
): Promise<InviteRow | undefined> {
  const [row] = await db
    .update(invites)
    .set(values)
    .where(and(eq(invites.id, inviteId), unanswered()))
    .returning();
  return row;
}

/** What an invitation mail names: the team and who invited. */
export async function findMailNames(db: Db, teamId: number, inviterId: string | null) {
  const [team] = await db.select({ name: teams.name }).from(teams).where(eq(teams.id, teamId)).limit(1);
  const [inviter] = inviterId
    ? await db.select({ name: users.name }).from(users).where(eq(users.id, inviterId)).limit(1)
    : [];
  return { teamName: team?.name ?? 'a team', inviterName: inviter?.name ?? null };
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
