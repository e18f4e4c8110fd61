import { and, asc, desc, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  type ChatThreadType,
  chatThreadMembers,
  chatThreads,
  chatThreadTeams,
  type TeamRole,
  teamMembers,
} from '../../../db/schema/index.ts';
import { type ThreadRow, threadColumns, viewerColumns } from '../thread-access.ts';

/** A thread row with what its viewer sees of it: their state, its teams, its chosen members, their unread count. */
export type ThreadListRow = ThreadRow & {
  teamIds: number[];
  memberIds: string[] | null;
  unreadCount: number;
};

function listColumns(userId: string) {
  return {
    ...threadColumns,
    ...viewerColumns,
    teamIds: sql<number[]>`array(select tt.team_id from chat_thread_teams tt
      where tt.thread_id = ${chatThreads.id} order by tt.team_id)`,
    memberIds: sql<string[] | null>`case when ${chatThreads.type} = 'team' then null else array(
      select cm.user_id from chat_thread_members cm
      where cm.thread_id = ${chatThreads.id} and cm.removed_at is null order by cm.added_at, cm.user_id) end`,
    // Messages of others after the viewer's marker; evaluated only for the rows of the page.
    unreadCount: sql<number>`(select count(*)::int from chat_messages um
      where um.thread_id = ${chatThreads.id} and um.deleted_at is null
        and (${chatThreadMembers.lastReadMessageId} is null or um.id > ${chatThreadMembers.lastReadMessageId})
        and um.author_id is distinct from ${userId}::uuid)`,
  };
}

/** Threads the user sees: in one of their teams (`teamId`: that team), and chosen for non-team threads. */
function visibleTo(userId: string, teamId: number | undefined): SQL {
  const team = teamId === undefined ? sql`` : sql`and tt.team_id = ${teamId}`;
  return sql`${chatThreads.id} in (select tt.thread_id from team_members tm
      inner join chat_thread_teams tt on tt.team_id = tm.team_id
      where tm.user_id = ${userId}::uuid ${team})
    and (${chatThreads.type} = 'team' or (${chatThreadMembers.userId} is not null
      and ${chatThreadMembers.removedAt} is null))`;
}

function selectThreads(db: Db, userId: string) {
  return db
    .select(listColumns(userId))
    .from(chatThreads)
    .leftJoin(
      chatThreadMembers,
      and(eq(chatThreadMembers.threadId, chatThreads.id), eq(chatThreadMembers.userId, userId)),
    );
}

/**
 * A page of the threads the user sees, newest activity first, after the cursor `[activityAt, id]`; a team
 * thread they left stays out until a message newer than their leaving.
 */
export function listThreads(
  db: Db,
  userId: string,
  filter: { teamId?: number | undefined },
  after: [string, string] | undefined,
  limit: number,
): Promise<ThreadListRow[]> {
  return selectThreads(db, userId)
    .where(
      and(
        visibleTo(userId, filter.teamId),
        sql`(${chatThreadMembers.hiddenAt} is null
          or ${chatThreads.lastMessageAt} > ${chatThreadMembers.hiddenAt})`,
        after
          ? sql`(${chatThreads.activityAt}, ${chatThreads.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(chatThreads.activityAt), desc(chatThreads.id))
    .limit(limit) as Promise<ThreadListRow[]>;
}

/** One thread as `userId` sees it in lists (the caller checked that they see it). */
export async function findThreadRow(db: Db, userId: string, threadId: string) {
  const [row] = await selectThreads(db, userId).where(eq(chatThreads.id, threadId)).limit(1);
  return row as ThreadListRow | undefined;
}

export async function insertThread(
  tx: Db,
  values: {
    id: string;
    type: ChatThreadType;
    name: string | null;
    /** The bot of a `bot` thread. */
    botId?: string | null;
    dedupeKey: string | null;
    createdBy: string;
    now: Date;
  },
): Promise<boolean> {
  const { now, ...rest } = values;
  const rows = await tx
    .insert(chatThreads)
    .values({ ...rest, activityAt: now, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: chatThreads.dedupeKey })
    .returning({ id: chatThreads.id });
  return rows.length > 0;
}

export async function findThreadIdByDedupeKey(db: Db, dedupeKey: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: chatThreads.id })
    .from(chatThreads)
    .where(eq(chatThreads.dedupeKey, dedupeKey))
    .limit(1);
  return row?.id;
}

export async function insertThreadTeams(tx: Db, threadId: string, teamIds: number[]): Promise<void> {
  await tx.insert(chatThreadTeams).values(teamIds.map((teamId) => ({ threadId, teamId })));
}

/** Makes users chosen members (again, for those who had left or were removed); answers who became one. */
export async function addMembers(tx: Db, threadId: string, userIds: string[], now: Date): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await tx
    .insert(chatThreadMembers)
    .values(userIds.map((userId) => ({ threadId, userId, addedAt: now })))
    .onConflictDoUpdate({
      target: [chatThreadMembers.threadId, chatThreadMembers.userId],
      set: { removedAt: null, addedAt: now },
      setWhere: isNotNull(chatThreadMembers.removedAt),
    })
    .returning({ userId: chatThreadMembers.userId });
  return rows.map((r) => r.userId);
}

/** Ends a chosen member's membership; false when they were not one. */
export async function removeMember(tx: Db, threadId: string, userId: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(chatThreadMembers)
    .set({ removedAt: now })
    .where(
      and(
        eq(chatThreadMembers.threadId, threadId),
        eq(chatThreadMembers.userId, userId),
        isNull(chatThreadMembers.removedAt),
      ),
    )
    .returning({ userId: chatThreadMembers.userId });
  return rows.length > 0;
}

/** Hides a team thread from the user's list until its next message. */
export async function hideThread(tx: Db, threadId: string, userId: string, now: Date): Promise<void> {
  await tx
    .insert(chatThreadMembers)
    .values({ threadId, userId, addedAt: now, hiddenAt: now })
    .onConflictDoUpdate({
      target: [chatThreadMembers.threadId, chatThreadMembers.userId],
      set: { hiddenAt: now },
    });
}

export async function renameThread(tx: Db, threadId: string, name: string | null, now: Date) {
  await tx.update(chatThreads).set({ name, updatedAt: now }).where(eq(chatThreads.id, threadId));
}

export async function deleteThread(tx: Db, threadId: string): Promise<void> {
  await tx.delete(chatThreads).where(eq(chatThreads.id, threadId));
}

/** The caller's role in each of `teamIds` they belong to. */
export function rolesIn(db: Db, userId: string, teamIds: number[]) {
  return db
    .select({ teamId: teamMembers.teamId, role: teamMembers.role })
    .from(teamMembers)
    .where(
      and(eq(teamMembers.userId, userId), sql`${teamMembers.teamId} = any(${sql.param(teamIds)}::int[])`),
    ) as Promise<{ teamId: number; role: TeamRole }[]>;
}

/** Which of `userIds` belong to at least one of `teamIds`. */
export async function membersOfTeams(db: Db, teamIds: number[], userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(
      and(
        sql`${teamMembers.teamId} = any(${sql.param(teamIds)}::int[])`,
        sql`${teamMembers.userId} = any(${sql.param(userIds)}::uuid[])`,
      ),
    )
    .orderBy(asc(teamMembers.userId));
  return new Set(rows.map((r) => r.userId));
}
