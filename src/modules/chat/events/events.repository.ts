import { and, asc, count, gt, isNotNull, isNull, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { chatThreads, chatTyping, domainEvents, sessions } from '../../../db/schema/index.ts';
import { sessionEventReaderSql } from '../../sessions/session-stream.ts';
import { EPHEMERAL_EVENT_TYPES } from './event-types.ts';

/**
 * An event of the log as the live streams carry it, under its stream name (`type`): about a thread
 * (`threadId`), a studio session (`sessionId`), or neither (for its `recipients` alone).
 */
export type StreamEvent = {
  position: number;
  type: string;
  threadId: string | null;
  sessionId: number | null;
  payload: Record<string, unknown>;
  recipients: string[] | null;
  createdAt: Date;
};

const streamColumns = {
  position: domainEvents.position,
  type: domainEvents.streamType,
  threadId: domainEvents.threadId,
  sessionId: domainEvents.sessionId,
  payload: domainEvents.payload,
  recipients: domainEvents.recipients,
  createdAt: domainEvents.createdAt,
};

/** Stream events committed after `position` (those not committed yet have no position). */
const streamAfter = (position: number) =>
  and(isNotNull(domainEvents.streamType), gt(domainEvents.position, position));

/** The stream events committed after `position`, whoever they are for, in commit order. */
export function streamEventsAfter(db: Db, position: number, limit: number): Promise<StreamEvent[]> {
  return db
    .select(streamColumns)
    .from(domainEvents)
    .where(streamAfter(position))
    .orderBy(asc(domainEvents.position))
    .limit(limit) as Promise<StreamEvent[]>;
}

/**
 * The stream events after `position` for `userId` as things stand now, in commit order: those of threads they
 * see, those of sessions they may read, and those told to them by name; typing marks left out (they are over
 * by now).
 */
export function streamEventsForUserAfter(
  db: Db,
  userId: string,
  position: number,
  limit: number,
): Promise<StreamEvent[]> {
  return db
    .select(streamColumns)
    .from(domainEvents)
    .where(forUserAfter(userId, position))
    .orderBy(asc(domainEvents.position))
    .limit(limit) as Promise<StreamEvent[]>;
}

/** How many events `streamEventsForUserAfter` would answer, counted up to `limit`. */
export async function countStreamEventsForUserAfter(db: Db, userId: string, position: number, limit: number) {
  const some = db
    .select({ position: domainEvents.position })
    .from(domainEvents)
    .where(forUserAfter(userId, position))
    .limit(limit)
    .as('some');
  const [row] = await db.select({ count: count() }).from(some);
  return row?.count ?? 0;
}

function forUserAfter(userId: string, position: number): SQL | undefined {
  return and(
    streamAfter(position),
    sql`${domainEvents.streamType} <> all(${sql.param([...EPHEMERAL_EVENT_TYPES])}::text[])`,
    sql`(${domainEvents.threadId} in (select tt.thread_id from team_members tm
            inner join chat_thread_teams tt on tt.team_id = tm.team_id
            inner join chat_threads t on t.id = tt.thread_id
            where tm.user_id = ${userId}::uuid and (t.type = 'team' or exists (select 1
              from chat_thread_members cm where cm.thread_id = t.id and cm.user_id = ${userId}::uuid
                and cm.removed_at is null)))
          or ${domainEvents.recipients} @> array[${userId}::uuid]
          or (${domainEvents.sessionId} is not null
            and ${sessionEventReaderSql(sql`${domainEvents.sessionId}`, sql`${userId}::uuid`, sql`${domainEvents.streamType}`)}))`,
  );
}

/** Which of `userIds` may get each of the session events at `positions` now (see sessionEventReaderSql). */
export async function sessionEventAudience(
  db: Db,
  positions: number[],
  userIds: string[],
): Promise<{ position: number; userId: string }[]> {
  if (positions.length === 0 || userIds.length === 0) return [];
  return db
    .select({
      position: sql<number>`${domainEvents.position}`.mapWith(Number),
      userId: sql<string>`listener.id`,
    })
    .from(domainEvents)
    .innerJoin(sql`unnest(${sql.param(userIds)}::uuid[]) as listener(id)`, sql`true`)
    .where(
      and(
        sql`${domainEvents.position} = any(${sql.param(positions)}::bigint[])`,
        isNotNull(domainEvents.sessionId),
        sessionEventReaderSql(
          sql`${domainEvents.sessionId}`,
          sql`listener.id`,
          sql`${domainEvents.streamType}`,
        ),
      ),
    );
}

/**
 * Whether stream events after `position` may be gone from the log (its retention deleted them): the oldest
 * stream event kept, and whether every position between `position` and it is still there (events of other
 * kinds fill the positions between stream events).
 */
export async function streamGapAfter(
  db: Db,
  position: number,
): Promise<{ lost: boolean; oldest: number | null }> {
  const [kept] = await db
    .select({ oldest: sql<string | null>`min(${domainEvents.position})` })
    .from(domainEvents)
    .where(isNotNull(domainEvents.streamType));
  const oldest = kept?.oldest == null ? null : Number(kept.oldest);
  // With no stream event kept, every position given up to now bounds what may be gone.
  const upper = oldest ?? (await lastGiven(db)) + 1;
  if (position >= upper - 1) return { lost: false, oldest };
  const [between] = await db
    .select({ count: count() })
    .from(domainEvents)
    .where(and(gt(domainEvents.position, position), lt(domainEvents.position, upper)));
  return { lost: (between?.count ?? 0) < upper - position - 1, oldest };
}

/** The last position the log gave, kept or not (0 when none was). */
export async function lastGiven(db: Db): Promise<number> {
  const [row] = await db
    .select({
      last: sql<string | null>`greatest(max(${domainEvents.position}),
        pg_sequence_last_value('domain_events_position_seq'))`,
    })
    .from(domainEvents);
  return row?.last == null ? 0 : Number(row.last);
}

/** Deletes threads left without a team (their teams were deleted): nobody can see them any more. */
export async function deleteTeamlessThreads(db: Db): Promise<void> {
  await db
    .delete(chatThreads)
    .where(sql`not exists (select 1 from chat_thread_teams tt where tt.thread_id = ${chatThreads.id})`);
}

/** Deletes typing marks that ran out before `before`. */
export async function deleteTypingBefore(db: Db, before: Date): Promise<void> {
  await db.delete(chatTyping).where(lte(chatTyping.expiresAt, before));
}

/** Which of `sessionIds` are still active (not logged out or expired; a deletion request revokes them). */
export async function activeSessions(db: Db, sessionIds: string[], now: Date): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        sql`${sessions.id} = any(${sql.param(sessionIds)}::uuid[])`,
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    );
  return new Set(rows.map((r) => r.id));
}
