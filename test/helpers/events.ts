import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { domainEvents } from '../../src/db/schema/index.ts';

/** The events recorded for a team (of one subject type when given), in the order of the log. */
export function teamEvents(db: Db, teamId: number, subjectType?: string) {
  return db
    .select({
      type: domainEvents.type,
      subjectType: domainEvents.subjectType,
      subjectId: domainEvents.subjectId,
      payload: domainEvents.payload,
    })
    .from(domainEvents)
    .where(
      and(
        eq(domainEvents.teamId, teamId),
        subjectType === undefined ? undefined : eq(domainEvents.subjectType, subjectType),
      ),
    )
    .orderBy(asc(domainEvents.position));
}
