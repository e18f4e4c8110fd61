import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { followUpTasks } from '../../db/schema/index.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Clock } from '../../shared/clock.ts';
import type { NotificationDraft } from './notification-rules.ts';
import { deliverNotifications } from './notify.ts';

export const FOLLOW_UPS_DUE_JOB = 'notifications.followUpsDue';

const MINUTE = 60_000;
/** Tasks that fell due longer ago than this (while nothing ran) are left to the inbox. */
const LOOK_BACK_MS = 7 * 24 * 60 * MINUTE;
const BATCH = 500;

/** A task notifies once per due time: moving it to a new time notifies again. */
const dueKey = sql<string>`'follow_up_due:' || ${followUpTasks.id} || ':'
  || (extract(epoch from ${followUpTasks.dueAt}) * 1000)::bigint`;

/** Tells people of their open follow-up tasks that fell due since the last run; answers how many were told. */
export async function notifyDueFollowUps(db: Db, clock: Clock): Promise<number> {
  const now = clock.now();
  let told = 0;
  for (let after = ''; ; ) {
    const due = await db
      .select({
        id: followUpTasks.id,
        userId: followUpTasks.userId,
        teamId: followUpTasks.teamId,
        botId: followUpTasks.botId,
        dueAt: followUpTasks.dueAt,
        key: dueKey,
      })
      .from(followUpTasks)
      .where(
        and(
          eq(followUpTasks.status, 'open'),
          lte(followUpTasks.dueAt, now),
          gt(followUpTasks.dueAt, new Date(now.getTime() - LOOK_BACK_MS)),
          gt(followUpTasks.id, after || '00000000-0000-0000-0000-000000000000'),
          sql`not exists (select 1 from notifications n
            where n.user_id = ${followUpTasks.userId} and n.dedupe_key = ${dueKey})`,
        ),
      )
      .orderBy(followUpTasks.id)
      .limit(BATCH);
    const drafts: NotificationDraft[] = due.map((task) => ({
      userId: task.userId,
      kind: 'follow_up_due',
      teamId: task.teamId,
      organisationId: null,
      actorUserId: null,
      subjectType: 'follow_up_task',
      subjectId: task.id,
      data: { taskId: task.id, botId: task.botId, teamId: task.teamId, dueAt: task.dueAt },
      dedupeKey: task.key,
    }));
    told += (await db.transaction((tx) => deliverNotifications(tx, drafts, now))).length;
    if (due.length < BATCH) return told;
    after = due[due.length - 1]!.id;
  }
}

/** Looks for follow-ups falling due every minute. */
export function defineNotificationJobs(jobs: JobQueue, db: Db, clock: Clock): void {
  jobs.define(FOLLOW_UPS_DUE_JOB, async () => {
    await notifyDueFollowUps(db, clock);
  });
  jobs.every(FOLLOW_UPS_DUE_JOB, MINUTE);
}
