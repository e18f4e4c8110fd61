import { Type } from '@sinclair/typebox';
import { desc, sql } from 'drizzle-orm';
import { CHAT_THREAD_TYPES, chatThreads as t } from '../../../db/schema/index.ts';
import { Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { threadVisibleSql } from '../../chat/thread-access.ts';
import { Nullable } from '../contacts.schemas.ts';
import type { TogetherPart } from './together-context.ts';

/** Threads `threads` lists at most. */
export const TOGETHER_THREADS_LIMIT = 50;

const TogetherThreads = Type.Array(
  Type.Object({
    id: Uuid,
    type: StringEnum(CHAT_THREAD_TYPES),
    name: Nullable(Type.String()),
    activityAt: { ...Timestamp, description: 'Newest activity: creation or the last message' },
  }),
  {
    description:
      'Chat threads both see: team threads of a shared team, and group or direct threads where both are ' +
      `members. Newest activity first, at most ${TOGETHER_THREADS_LIMIT}.`,
  },
);

export const threadsPart: TogetherPart<typeof TogetherThreads> = {
  schema: TogetherThreads,
  read({ db, callerId, personId, teamIds }) {
    // Candidates through indexes (the shared teams' threads, the caller's memberships), then chat's rule for both.
    return db
      .select({ id: t.id, type: t.type, name: t.name, activityAt: t.activityAt })
      .from(t)
      .where(
        sql`(${t.id} in (select tt.thread_id from chat_thread_teams tt
              where tt.team_id = any(${sql.param(teamIds)}::int[]))
            or ${t.id} in (select cm.thread_id from chat_thread_members cm
              where cm.user_id = ${callerId} and cm.removed_at is null))
          and ${threadVisibleSql(t.id, t.type, callerId)} and ${threadVisibleSql(t.id, t.type, personId)}`,
      )
      .orderBy(desc(t.activityAt), desc(t.id))
      .limit(TOGETHER_THREADS_LIMIT);
  },
};
