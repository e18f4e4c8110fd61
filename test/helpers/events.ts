import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { domainEvents } from '../../src/db/schema/index.ts';
import { EVENT_TYPE_NAMES } from '../../src/modules/webhooks/event-types.ts';

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

export type EventOwner = { teamId: number } | { organisationId: number };

/** The events of a team or of an organisation (of one type when given), in the order of the log. */
export function ownerEvents(db: Db, owner: EventOwner, type?: string) {
  return db
    .select({
      type: domainEvents.type,
      subjectType: domainEvents.subjectType,
      subjectId: domainEvents.subjectId,
      actorUserId: domainEvents.actorUserId,
      payload: domainEvents.payload,
    })
    .from(domainEvents)
    .where(and(ownedBy(owner), type === undefined ? undefined : eq(domainEvents.type, type)))
    .orderBy(asc(domainEvents.position));
}

/**
 * The events of a webhook type recorded for a team or an organisation (of one type when given), in the order of
 * the log: what their endpoints are sent.
 */
export function webhookEventsOf(db: Db, owner: EventOwner, type?: string) {
  return db
    .select({ type: domainEvents.type, data: domainEvents.payload, createdAt: domainEvents.createdAt })
    .from(domainEvents)
    .where(
      and(
        ownedBy(owner),
        type === undefined ? inArray(domainEvents.type, EVENT_TYPE_NAMES) : eq(domainEvents.type, type),
      ),
    )
    .orderBy(asc(domainEvents.position));
}

const ownedBy = (owner: EventOwner) =>
  'teamId' in owner
    ? eq(domainEvents.teamId, owner.teamId)
    : eq(domainEvents.organisationId, owner.organisationId);
