import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { activityEntries } from '../../src/db/schema/index.ts';

/** The activity entries recorded for a team (of one subject type when given), oldest first. */
export function teamActivity(db: Db, teamId: number, subjectType?: string) {
  return db
    .select({
      action: activityEntries.action,
      subjectType: activityEntries.subjectType,
      subjectId: activityEntries.subjectId,
      data: activityEntries.data,
    })
    .from(activityEntries)
    .where(
      and(
        eq(activityEntries.teamId, teamId),
        subjectType === undefined ? undefined : eq(activityEntries.subjectType, subjectType),
      ),
    )
    .orderBy(asc(activityEntries.id));
}
