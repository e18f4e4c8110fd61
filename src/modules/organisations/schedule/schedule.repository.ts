import { and, asc, eq, gte, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  organisationTeams,
  type StudioSessionStatus,
  studioSessions as sessions,
  studios,
} from '../../../db/schema/index.ts';
import type { SessionKey } from '../../sessions/sessions.repository.ts';

export type OrganisationSessionFilter = {
  organisationId: number;
  from?: Date | undefined;
  to?: Date | undefined;
  status?: StudioSessionStatus | undefined;
};

/**
 * Sessions of the organisation's teams and sessions booked in its studios, soonest first, after `key`
 * (`[startsAt, id]`).
 */
export function listOrganisationSessions(
  db: Db,
  f: OrganisationSessionFilter,
  key: SessionKey | undefined,
  limit: number,
) {
  return db
    .select()
    .from(sessions)
    .where(
      and(
        or(
          sql`${sessions.teamId} in (select ${organisationTeams.teamId} from ${organisationTeams}
            where ${organisationTeams.organisationId} = ${f.organisationId})`,
          sql`${sessions.studioId} in (select ${studios.id} from ${studios}
            where ${studios.organisationId} = ${f.organisationId})`,
        ),
        f.from ? gte(sessions.startsAt, f.from) : undefined,
        f.to ? lt(sessions.startsAt, f.to) : undefined,
        f.status ? eq(sessions.status, f.status) : undefined,
        key
          ? sql`(${sessions.startsAt}, ${sessions.id}) > (${key[0]}::timestamptz, ${key[1]}::integer)`
          : undefined,
      ),
    )
    .orderBy(asc(sessions.startsAt), asc(sessions.id))
    .limit(limit);
}

/** The camp's sessions that are not cancelled, earliest first. */
export function campSessions(db: Db, campId: number, limit: number) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.campId, campId), ne(sessions.status, 'cancelled')))
    .orderBy(asc(sessions.startsAt), asc(sessions.id))
    .limit(limit);
}
