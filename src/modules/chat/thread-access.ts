import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type Placeholders, preparedQuery } from '../../db/prepared.ts';
import {
  type ChatThreadType,
  chatThreadMembers,
  chatThreads,
  chatThreadTeams,
  type TeamRole,
  teamMembers,
} from '../../db/schema/index.ts';
import { errors } from '../../shared/errors.ts';
import { MANAGERS } from '../../shared/tenancy.ts';

/**
 * Who sees a thread: a member of one of its teams, and for every type but `team` only while a chosen member
 * (a `chat_thread_members` row without `removedAt`). `threadId`, `type` and `userId` are SQL of the query.
 */
export function threadVisibleSql(threadId: unknown, type: unknown, userId: unknown): SQL<boolean> {
  return sql<boolean>`(exists (select 1 from chat_thread_teams vt
      inner join team_members vm on vm.team_id = vt.team_id
      where vt.thread_id = ${threadId} and vm.user_id = ${userId})
    and (${type} = 'team' or exists (select 1 from chat_thread_members vc
      where vc.thread_id = ${threadId} and vc.user_id = ${userId} and vc.removed_at is null)))`;
}

export const threadColumns = {
  id: chatThreads.id,
  type: chatThreads.type,
  name: chatThreads.name,
  botId: chatThreads.botId,
  createdBy: chatThreads.createdBy,
  lastMessageId: chatThreads.lastMessageId,
  lastMessageAt: chatThreads.lastMessageAt,
  activityAt: chatThreads.activityAt,
  createdAt: chatThreads.createdAt,
  updatedAt: chatThreads.updatedAt,
};

/** The caller's own state in a thread (defaults when they have no row yet). */
export const viewerColumns = {
  pinned: sql<boolean>`coalesce(${chatThreadMembers.pinned}, false)`,
  lastReadMessageId: chatThreadMembers.lastReadMessageId,
  readAt: chatThreadMembers.readAt,
  hiddenAt: chatThreadMembers.hiddenAt,
};

export type ThreadRow = {
  id: string;
  type: ChatThreadType;
  name: string | null;
  botId: string | null;
  createdBy: string | null;
  lastMessageId: string | null;
  lastMessageAt: Date | null;
  activityAt: Date;
  createdAt: Date;
  updatedAt: Date;
  pinned: boolean;
  lastReadMessageId: string | null;
  readAt: Date | null;
  hiddenAt: Date | null;
};

/** A thread as its caller sees it, with what their permission checks need. */
export type ThreadAccess = ThreadRow & {
  teamIds: number[];
  /** The caller's roles in the thread's teams (empty: in none of them). */
  roles: TeamRole[];
  /** Whether the caller is a chosen member (non-team threads). */
  member: boolean;
};

const threadOfUser = preparedQuery(
  'chat_thread_of_user',
  (db, p: Placeholders<{ threadId: string; userId: string }>) =>
    db
      .select({
        ...threadColumns,
        ...viewerColumns,
        member: sql<boolean>`(${chatThreadMembers.userId} is not null and ${chatThreadMembers.removedAt} is null)`,
        teamIds: sql<number[]>`array(select tt.team_id from chat_thread_teams tt
          where tt.thread_id = ${chatThreads.id} order by tt.team_id)`,
        roles: sql<TeamRole[]>`array(select tm.role from chat_thread_teams tt
          inner join team_members tm on tm.team_id = tt.team_id
          where tt.thread_id = ${chatThreads.id} and tm.user_id = ${p.userId})`,
      })
      .from(chatThreads)
      .leftJoin(
        chatThreadMembers,
        and(eq(chatThreadMembers.threadId, chatThreads.id), eq(chatThreadMembers.userId, p.userId)),
      )
      .where(eq(chatThreads.id, p.threadId))
      .limit(1),
);

/** Whether `access` lets its caller see the thread. */
export const canSee = (access: Pick<ThreadAccess, 'type' | 'roles' | 'member'>) =>
  access.roles.length > 0 && (access.type === 'team' || access.member);

/** Whether the caller manages the thread: an owner or admin of one of its teams. */
export const managesThread = (access: Pick<ThreadAccess, 'roles'>) =>
  access.roles.some((role) => MANAGERS.includes(role));

/** The tenancy guard of chat: a thread the user cannot see (missing, another team's, left) is 404. */
export async function requireThread(db: Db, userId: string, threadId: string): Promise<ThreadAccess> {
  const [row] = await threadOfUser(db, { threadId, userId });
  const access = row as ThreadAccess | undefined;
  if (!access || !canSee(access)) throw errors.notFound('chat thread');
  return access;
}

/** A thread's creator or a manager of one of its teams; anyone else who sees it gets 403. */
export function requireCreatorOrManager(access: ThreadAccess, userId: string, message: string): void {
  if (access.createdBy !== userId && !managesThread(access)) throw errors.forbidden(message);
}

/** Everyone who sees each of `threadIds` now, optionally only among `userIds`. */
export async function threadAudience(
  db: Db,
  threadIds: string[],
  userIds?: string[],
): Promise<{ threadId: string; userId: string }[]> {
  if (threadIds.length === 0 || userIds?.length === 0) return [];
  return db
    .selectDistinct({ threadId: chatThreadTeams.threadId, userId: teamMembers.userId })
    .from(chatThreadTeams)
    .innerJoin(teamMembers, eq(teamMembers.teamId, chatThreadTeams.teamId))
    .innerJoin(chatThreads, eq(chatThreads.id, chatThreadTeams.threadId))
    .where(
      and(
        sql`${chatThreadTeams.threadId} = any(${sql.param(threadIds)}::uuid[])`,
        userIds ? sql`${teamMembers.userId} = any(${sql.param(userIds)}::uuid[])` : undefined,
        sql`(${chatThreads.type} = 'team' or exists (select 1 from chat_thread_members cm
          where cm.thread_id = ${chatThreadTeams.threadId} and cm.user_id = ${teamMembers.userId}
            and cm.removed_at is null))`,
      ),
    );
}
