import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  type ParticipantStatus,
  sessionParticipants as participants,
  studioSessions,
  teamMembers,
  teams,
  users,
} from '../../../db/schema/index.ts';
import { sameEmail } from '../../../shared/email.ts';
import { ownParticipationSql } from '../session-access.ts';

/** A participant as answers show it: the name given at the invitation, else the user's own. */
const participantView = {
  id: participants.id,
  sessionId: participants.sessionId,
  userId: participants.userId,
  email: participants.email,
  name: sql<string | null>`coalesce(${participants.name}, ${users.name})`,
  status: participants.status,
  invitedBy: participants.invitedBy,
  respondedAt: participants.respondedAt,
  createdAt: participants.createdAt,
  updatedAt: participants.updatedAt,
};

export type ParticipantView = {
  id: number;
  sessionId: number;
  userId: string | null;
  email: string | null;
  name: string | null;
  status: ParticipantStatus;
  invitedBy: string | null;
  respondedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

const viewQuery = (db: Db) =>
  db.select(participantView).from(participants).leftJoin(users, eq(users.id, participants.userId));

/** Up to `limit` participants of the session after id `afterId`, in invitation order. */
export function listParticipants(
  db: Db,
  sessionId: number,
  afterId: number | undefined,
  limit: number,
): Promise<ParticipantView[]> {
  return viewQuery(db)
    .where(
      and(
        eq(participants.sessionId, sessionId),
        afterId === undefined ? undefined : gt(participants.id, afterId),
      ),
    )
    .orderBy(asc(participants.id))
    .limit(limit);
}

export async function findParticipant(
  db: Db,
  sessionId: number,
  participantId: number,
): Promise<ParticipantView | undefined> {
  const [row] = await viewQuery(db).where(
    and(eq(participants.sessionId, sessionId), eq(participants.id, participantId)),
  );
  return row;
}

/** The user's own invitation to the session (by user, or to their e-mail), the accepted one first. */
export async function findOwnParticipation(
  db: Db,
  sessionId: number,
  userId: string,
): Promise<{ id: number } | undefined> {
  const [row] = await db
    .select({ id: sql<number>`p.id` })
    .from(sql`${participants} p`)
    .where(sql`p.session_id = ${sessionId} and ${ownParticipationSql(userId)}`)
    .orderBy(sql`(p.status = 'accepted') desc, p.id`)
    .limit(1);
  return row;
}

/** Whether the participant is the user's: invited as them, or to their e-mail address. */
export async function isOwnParticipation(db: Db, participantId: number, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: sql<number>`p.id` })
    .from(sql`${participants} p`)
    .where(sql`p.id = ${participantId} and ${ownParticipationSql(userId)}`);
  return row !== undefined;
}

/**
 * Whether the participant is an e-mail invitation to the user's address while that address is not verified:
 * the one case where the address alone would make it theirs.
 */
export async function isUnverifiedAddressMatch(
  db: Db,
  sessionId: number,
  participantId: number,
  userId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: participants.id })
    .from(participants)
    .innerJoin(users, eq(users.id, userId))
    .where(
      and(
        eq(participants.id, participantId),
        eq(participants.sessionId, sessionId),
        isNull(participants.userId),
        sql`lower(${participants.email}) = lower(${users.email})`,
        isNull(users.emailVerifiedAt),
      ),
    );
  return row !== undefined;
}

export type NewParticipant = {
  sessionId: number;
  userId: string | null;
  email: string | null;
  name: string | null;
  status: ParticipantStatus;
  invitedBy: string | null;
  respondedAt: Date | null;
  /** SHA-256 of the token mailed with an e-mail invitation. */
  tokenHash?: string | null;
  now: Date;
};

/** Inserts a participant; undefined when the session has them already (same user or e-mail). */
export async function insertParticipant(db: Db, p: NewParticipant): Promise<number | undefined> {
  const { now, ...values } = p;
  const [row] = await db
    .insert(participants)
    .values({ ...values, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: participants.id });
  return row?.id;
}

/** Records an answer; an e-mail invitation also gets the user who answered it, and its token is spent. */
export async function setAnswer(
  db: Db,
  participantId: number,
  answer: { status: ParticipantStatus; userId: string; now: Date },
): Promise<void> {
  await db
    .update(participants)
    .set({
      status: answer.status,
      userId: answer.userId,
      respondedAt: answer.now,
      updatedAt: answer.now,
      tokenHash: null,
    })
    .where(eq(participants.id, participantId));
}

/** Deletes a participant; answers the account it named (by id, or by its address), or undefined when none was. */
export async function deleteParticipant(
  db: Db,
  sessionId: number,
  participantId: number,
): Promise<{ userId: string | null } | undefined> {
  const [row] = await db
    .delete(participants)
    .where(and(eq(participants.sessionId, sessionId), eq(participants.id, participantId)))
    .returning({ userId: participants.userId, email: participants.email });
  if (!row) return undefined;
  if (row.userId !== null || row.email === null) return { userId: row.userId };
  const [byEmail] = await db.select({ id: users.id }).from(users).where(sameEmail(users.email, row.email));
  return { userId: byEmail?.id ?? null };
}

/** The e-mail invitation whose (unspent) token hashes to `tokenHash`. */
export async function findByTokenHash(
  db: Db,
  tokenHash: string,
): Promise<{ id: number; sessionId: number } | undefined> {
  const [row] = await db
    .select({ id: participants.id, sessionId: participants.sessionId })
    .from(participants)
    .where(eq(participants.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/** Whether the participant is an e-mail invitation nobody has answered yet (the kind that is mailed). */
export async function isOpenEmailInvitation(
  db: Db,
  sessionId: number,
  participantId: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: participants.id })
    .from(participants)
    .where(
      and(
        eq(participants.id, participantId),
        eq(participants.sessionId, sessionId),
        isNull(participants.userId),
        eq(participants.status, 'invited'),
      ),
    );
  return row !== undefined;
}

/** Gives an unanswered e-mail invitation a new token (the old one stops working); false when answered meanwhile. */
export async function renewToken(db: Db, participantId: number, tokenHash: string, now: Date) {
  const rows = await db
    .update(participants)
    .set({ tokenHash, updatedAt: now })
    .where(
      and(
        eq(participants.id, participantId),
        isNull(participants.userId),
        eq(participants.status, 'invited'),
      ),
    )
    .returning({ id: participants.id });
  return rows.length > 0;
}

/** What an invitation mail names: the session, its team, and who invited. */
export async function findMailNames(db: Db, sessionId: number, inviterId: string | null) {
  const [session] = await db
    .select({ title: studioSessions.title, startsAt: studioSessions.startsAt, teamName: teams.name })
    .from(studioSessions)
    .innerJoin(teams, eq(teams.id, studioSessions.teamId))
    .where(eq(studioSessions.id, sessionId))
    .limit(1);
  const [inviter] = inviterId
    ? await db.select({ name: users.name }).from(users).where(eq(users.id, inviterId)).limit(1)
    : [];
  return { session, inviterName: inviter?.name ?? null };
}

export async function isTeamMember(db: Db, teamId: number, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  return row !== undefined;
}

/** Raises the session's join-link version (every earlier link stops working); answers the session. */
export async function nextLinkVersion(db: Db, sessionId: number, now: Date) {
  const [row] = await db
    .update(studioSessions)
    .set({ linkVersion: sql`${studioSessions.linkVersion} + 1`, updatedAt: now })
    .where(eq(studioSessions.id, sessionId))
    .returning();
  return row;
}
