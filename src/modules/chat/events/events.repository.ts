import { and, asc, count, gt, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { chatEvents, chatThreads, chatTyping, sessions } from '../../../db/schema/index.ts';
import { sessionEventReaderSql } from '../../sessions/session-stream.ts';
import { EPHEMERAL_EVENT_TYPES } from './event-types.ts';

/** An event of a thread (`threadId`) or of a studio session (`sessionId`): exactly one of the two is set. */
export type StoredEvent = {
  id: number;
  threadId: string | null;
  sessionId: number | null;
  type: string;
  payload: Record<string, unknown>;
  recipients: string[] | null;
  createdAt: Date;
};

const eventColumns = {
  id: chatEvents.id,
  threadId: chatEvents.threadId,
  sessionId: chatEvents.sessionId,
  type: chatEvents.type,
  payload: chatEvents.payload,
  recipients: chatEvents.recipients,
  createdAt: chatEvents.createdAt,
};

export function eventsByIds(db: Db, ids: number[]): Promise<StoredEvent[]> {
  return db
    .select(eventColumns)
    .from(chatEvents)
    .where(sql`${chatEvents.id} = any(${sql.param(ids)}::bigint[])`)
    .orderBy(asc(chatEvents.id));
}

/** Every kept event after `afterId`, whoever it is for (a listener catching up after a lost connection). */
export function eventsAfterId(db: Db, afterId: number, limit: number): Promise<StoredEvent[]> {
  return db
    .select(eventColumns)
    .from(chatEvents)
    .where(gt(chatEvents.id, afterId))
    .orderBy(asc(chatEvents.id))
    .limit(limit);
}

/**
 * The kept events after `afterId` for `userId` as things stand now: those of threads they see, those of
 * sessions they may read, and those told to them by name; typing marks left out (they are over by now).
 */
export function eventsForUserAfter(db: Db, userId: string, afterId: number, limit: number) {
  return db
    .select(eventColumns)
    .from(chatEvents)
    .where(keptForUserAfter(userId, afterId))
    .orderBy(asc(chatEvents.id))
    .limit(limit) as Promise<StoredEvent[]>;
}

/** How many events `eventsForUserAfter` would answer, counted up to `limit`. */
export async function countEventsForUserAfter(db: Db, userId: string, afterId: number, limit: number) {
  const some = db
    .select({ id: chatEvents.id })
    .from(chatEvents)
    .where(keptForUserAfter(userId, afterId))
    .limit(limit)
    .as('some');
  const [row] = await db.select({ count: count() }).from(some);
  return row?.count ?? 0;
}

function keptForUserAfter(userId: string, afterId: number) {
  return and(
    gt(chatEvents.id, afterId),
    sql`${chatEvents.type} <> all(${sql.param([...EPHEMERAL_EVENT_TYPES])}::text[])`,
    sql`(${chatEvents.threadId} in (select tt.thread_id from team_members tm
            inner join chat_thread_teams tt on tt.team_id = tm.team_id
            inner join chat_threads t on t.id = tt.thread_id
            where tm.user_id = ${userId}::uuid and (t.type = 'team' or exists (select 1
              from chat_thread_members cm where cm.thread_id = t.id and cm.user_id = ${userId}::uuid
                and cm.removed_at is null)))
          or ${chatEvents.recipients} @> array[${userId}::uuid]
          or (${chatEvents.sessionId} is not null
            and ${sessionEventReaderSql(sql`${chatEvents.sessionId}`, sql`${userId}::uuid`, sql`${chatEvents.type}`)}))`,
  );
}

/** Which of `userIds` may get each of the session events `eventIds` now (see sessionEventReaderSql). */
export async function sessionEventAudience(
  db: Db,
  eventIds: number[],
  userIds: string[],
): Promise<{ eventId: number; userId: string }[]> {
  if (eventIds.length === 0 || userIds.length === 0) return [];
  return db
    .select({ eventId: chatEvents.id, userId: sql<string>`listener.id` })
    .from(chatEvents)
    .innerJoin(sql`unnest(${sql.param(userIds)}::uuid[]) as listener(id)`, sql`true`)
    .where(
      and(
        sql`${chatEvents.id} = any(${sql.param(eventIds)}::bigint[])`,
        sql`${chatEvents.sessionId} is not null`,
        sessionEventReaderSql(sql`${chatEvents.sessionId}`, sql`listener.id`, sql`${chatEvents.type}`),
      ),
    );
}

/** The oldest event still kept, and the last id ever given (null when none was). */
export async function keptRange(db: Db): Promise<{ oldest: number | null; last: number | null }> {
  const [row] = await db
    .select({
      oldest: sql<string | null>`min(${chatEvents.id})`,
      last: sql<string | null>`pg_sequence_last_value('chat_events_id_seq')`,
    })
    .from(chatEvents);
  return {
    oldest: row?.oldest == null ? null : Number(row.oldest),
    last: row?.last == null ? null : Number(row.last),
  };
}

/** Deletes up to `limit` events written before `before`; answers how many went. */
export async function deleteEventsBefore(db: Db, before: Date, limit: number): Promise<number> {
  const due = db
    .select({ id: chatEvents.id })
    .from(chatEvents)
    .where(lt(chatEvents.createdAt, before))
    .limit(limit);
  const rows = await db
    .delete(chatEvents)
    .where(sql`${chatEvents.id} in (${due})`)
    .returning({ id: chatEvents.id });
  return rows.length;
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
