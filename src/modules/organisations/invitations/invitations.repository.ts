import { and, desc, eq, gt, isNotNull, isNull, lt, lte, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { organisationInvitations as invitations, organisations, users } from '../../../db/schema/index.ts';
import { sameEmail } from '../../../shared/email.ts';

export type InvitationRow = typeof invitations.$inferSelect;
/** Who an invitation is for: a user id or a (normalised) e-mail address, exactly one. */
export type Invitee = { userId: string; email?: undefined } | { email: string; userId?: undefined };

const sentTo = (who: Invitee): SQL =>
  who.userId !== undefined ? eq(invitations.userId, who.userId) : sameEmail(invitations.email, who.email);
/** Neither accepted nor declined (it may still have expired). */
const unanswered = () => and(isNull(invitations.acceptedAt), isNull(invitations.declinedAt));
export const open = (now: Date) => and(unanswered(), gt(invitations.expiresAt, now));

export async function insertInvitation(
  db: Db,
  values: typeof invitations.$inferInsert,
): Promise<InvitationRow> {
  const [row] = await db.insert(invitations).values(values).returning();
  return row!;
}

/** Open invitations of the organisation, newest first, after the invitation id `before`. */
export function listOpenInvitations(
  db: Db,
  organisationId: number,
  now: Date,
  limit: number,
  before?: number,
) {
  return db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.organisationId, organisationId),
        open(now),
        before ? lt(invitations.id, before) : undefined,
      ),
    )
    .orderBy(desc(invitations.id))
    .limit(limit);
}

/** Withdraws an invitation that was not accepted; false when there is none. */
export async function deleteOpenInvitation(db: Db, organisationId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(invitations)
    .where(
      and(
        eq(invitations.id, id),
        eq(invitations.organisationId, organisationId),
        isNull(invitations.acceptedAt),
      ),
    )
    .returning({ id: invitations.id });
  return rows.length > 0;
}

/** Drops the invitee's expired or declined, never accepted invitations: they only block a new one. */
export async function clearClosedInvitations(db: Db, organisationId: number, who: Invitee, now: Date) {
  await db
    .delete(invitations)
    .where(
      and(
        eq(invitations.organisationId, organisationId),
        sentTo(who),
        isNull(invitations.acceptedAt),
        or(lte(invitations.expiresAt, now), isNotNull(invitations.declinedAt)),
      ),
    );
}

export async function hasOpenInvitation(db: Db, organisationId: number, who: Invitee): Promise<boolean> {
  const [row] = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(and(eq(invitations.organisationId, organisationId), sentTo(who), unanswered()))
    .limit(1);
  return row !== undefined;
}

/** The invitation whose token hashes to `tokenHash` (tokens are kept hashed). */
export async function findInvitationByTokenHash(
  db: Db,
  tokenHash: string,
): Promise<InvitationRow | undefined> {
  const [row] = await db.select().from(invitations).where(eq(invitations.tokenHash, tokenHash)).limit(1);
  return row;
}

export async function findInvitation(db: Db, id: number): Promise<InvitationRow | undefined> {
  const [row] = await db.select().from(invitations).where(eq(invitations.id, id)).limit(1);
  return row;
}

/**
 * Gives an unanswered invitation a new token (the old one stops working) and a new expiry; undefined when it
 * was answered or withdrawn meanwhile.
 */
export async function renewInvitation(
  db: Db,
  id: number,
  values: { tokenHash: string; expiresAt: Date },
): Promise<InvitationRow | undefined> {
  const [row] = await db
    .update(invitations)
    .set(values)
    .where(and(eq(invitations.id, id), unanswered()))
    .returning();
  return row;
}

/** What an invitation mail names: the organisation and who invited. */
export async function findMailNames(db: Db, organisationId: number, inviterId: string | null) {
  const [organisation] = await db
    .select({ name: organisations.name })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .limit(1);
  const [inviter] = inviterId
    ? await db.select({ name: users.name }).from(users).where(eq(users.id, inviterId)).limit(1)
    : [];
  return { organisationName: organisation?.name ?? 'an organisation', inviterName: inviter?.name ?? null };
}

/** Spends the invitation for `userId`; false when another request answered it first or it has expired. */
export async function claimInvitation(db: Db, id: number, userId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(invitations)
    .set({ acceptedAt: now, acceptedBy: userId })
    .where(and(eq(invitations.id, id), open(now)))
    .returning({ id: invitations.id });
  return rows.length > 0;
}

/** Turns an open invitation down; undefined when it was answered meanwhile or has expired. */
export async function declineInvitation(db: Db, id: number, now: Date): Promise<InvitationRow | undefined> {
  const [row] = await db
    .update(invitations)
    .set({ declinedAt: now })
    .where(and(eq(invitations.id, id), open(now)))
    .returning();
  return row;
}
