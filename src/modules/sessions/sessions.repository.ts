import { and, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  camps,
  organisationTeams,
  type StudioSessionStatus,
  studioSessions as sessions,
  studios,
} from '../../db/schema/index.ts';

export type SessionRow = typeof sessions.$inferSelect;

/** The writable fields of a session. */
export type SessionValues = {
  title: string;
  startsAt: Date;
  endsAt: Date;
  studioId: number | null;
  campId: number | null;
  notes: string | null;
  status: StudioSessionStatus;
};

/** Where a page of sessions ends: `[startsAt, id]` of its last session. */
export type SessionKey = [startsAt: string, id: number];
export const keyOf = (row: SessionRow): SessionKey => [row.startsAt.toISOString(), row.id];

/** Which sessions a list reads: one team's, or every session the user sees (their teams', accepted ones). */
export type SessionScope = { teamId: number } | { userId: string };

function scopeFilter(scope: SessionScope): SQL | undefined {
  if ('teamId' in scope) return eq(sessions.teamId, scope.teamId);
  return or(
    sql`${sessions.teamId} in (select team_id from team_members where user_id = ${scope.userId})`,
    sql`${sessions.id} in (select session_id from session_participants
      where user_id = ${scope.userId} and status = 'accepted')`,
  );
}

const after = (key: SessionKey | undefined, direction: '<' | '>') =>
  key
    ? sql`(${sessions.startsAt}, ${sessions.id}) ${sql.raw(direction)} (${key[0]}::timestamptz, ${key[1]}::integer)`
    : undefined;

// Spelled as the index is read backwards (see financials): a bare DESC means NULLS FIRST.
const NEWEST_FIRST = [sql`${sessions.startsAt} desc nulls last`, sql`${sessions.id} desc nulls last`];
const SOONEST_FIRST = [sessions.startsAt, sessions.id];

export type ListFilter = {
  scope: SessionScope;
  from?: Date | undefined;
  to?: Date | undefined;
  status?: StudioSessionStatus | undefined;
};

const listFilter = (f: ListFilter) =>
  and(
    scopeFilter(f.scope),
    f.from ? gte(sessions.startsAt, f.from) : undefined,
    f.to ? lt(sessions.startsAt, f.to) : undefined,
    f.status ? eq(sessions.status, f.status) : undefined,
  );

/** Up to `limit` sessions after `key`, latest start first. */
export function listSessions(db: Db, f: ListFilter, key: SessionKey | undefined, limit: number) {
  return db
    .select()
    .from(sessions)
    .where(and(listFilter(f), after(key, '<')))
    .orderBy(...NEWEST_FIRST)
    .limit(limit);
}

/** How many sessions the list's filter keeps. */
export async function countSessions(db: Db, f: ListFilter): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sessions).where(listFilter(f));
  return row?.n ?? 0;
}

/** Sessions of the user running at `now` (live, or scheduled with now in [startsAt, endsAt)), soonest first. */
export function liveSessions(db: Db, userId: string, now: Date, key: SessionKey | undefined, limit: number) {
  const at = now.toISOString();
  return db
    .select()
    .from(sessions)
    .where(
      and(
        scopeFilter({ userId }),
        or(
          eq(sessions.status, 'live'),
          sql`${sessions.status} = 'scheduled' and ${sessions.startsAt} <= ${at}::timestamptz
            and ${sessions.endsAt} > ${at}::timestamptz`,
        ),
        after(key, '>'),
      ),
    )
    .orderBy(...SOONEST_FIRST)
    .limit(limit);
}

/** The team's scheduled sessions that start after `now`, soonest first. */
export function upcomingSessions(
  db: Db,
  teamId: number,
  now: Date,
  key: SessionKey | undefined,
  limit: number,
) {
  return db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.teamId, teamId),
        eq(sessions.status, 'scheduled'),
        sql`${sessions.startsAt} > ${now.toISOString()}::timestamptz`,
        after(key, '>'),
      ),
    )
    .orderBy(...SOONEST_FIRST)
    .limit(limit);
}

export async function insertSession(
  db: Db,
  values: SessionValues & { teamId: number; createdBy: string; now: Date },
): Promise<SessionRow> {
  const { now, ...fields } = values;
  const [row] = await db
    .insert(sessions)
    .values({ ...fields, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

/** The session, locked until the transaction ends (the state a change starts from). */
export async function lockSession(db: Db, sessionId: number): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, sessionId)).for('update');
  return row;
}

export async function updateSession(
  db: Db,
  sessionId: number,
  fields: Partial<SessionValues>,
  now: Date,
): Promise<SessionRow> {
  const [row] = await db
    .update(sessions)
    .set({ ...fields, updatedAt: now })
    .where(eq(sessions.id, sessionId))
    .returning();
  return row!;
}

export async function deleteSession(db: Db, sessionId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** The organisation of a studio the team may book (one of its organisation's studios), or undefined. */
export async function bookableStudio(db: Db, teamId: number, studioId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ organisationId: studios.organisationId })
    .from(studios)
    .innerJoin(
      organisationTeams,
      and(eq(organisationTeams.organisationId, studios.organisationId), eq(organisationTeams.teamId, teamId)),
    )
    .where(eq(studios.id, studioId));
  return row?.organisationId;
}

/** Whether the camp is one of the team's organisation's camps. */
export async function campOfTeam(db: Db, teamId: number, campId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: camps.id })
    .from(camps)
    .innerJoin(
      organisationTeams,
      and(eq(organisationTeams.organisationId, camps.organisationId), eq(organisationTeams.teamId, teamId)),
    )
    .where(eq(camps.id, campId));
  return row !== undefined;
}

/** The organisation a studio belongs to (for the events of a booking as it was). */
export async function organisationOfStudio(db: Db, studioId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ organisationId: studios.organisationId })
    .from(studios)
    .where(eq(studios.id, studioId));
  return row?.organisationId;
}
