import { randomBytes } from 'node:crypto';
import { and, asc, eq, like } from 'drizzle-orm';
import type { TestContext, TestTeam } from '../../../test/helpers/context.ts';
import { webhookEventsOf } from '../../../test/helpers/events.ts';
import {
  buildings,
  camps,
  domainEvents,
  organisations,
  organisationTeams,
  studios,
} from '../../db/schema/index.ts';

type Fields = Record<string, unknown>;

/** Helpers of the sessions tests: sessions through the API, places straight in the database. */
export function sessionHelpers(ctx: TestContext) {
  const db = () => ctx.database.db;

  /** Creates a session through the API (as the team's owner unless `token` is given); answers it. */
  async function newSession(team: TestTeam, fields: Fields = {}, token = team.owner.token) {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/sessions/',
      token,
      payload: { teamId: team.id, title: 'Vocal tracking', startsAt: '2031-06-01T10:00:00.000Z', ...fields },
    });
    if (res.statusCode !== 201) throw new Error(`session create failed: ${res.statusCode} ${res.body}`);
    return res.json() as { id: number; teamId: number; studioId: number | null } & Fields;
  }

  /** An organisation holding the teams, with a building and `rooms` studios; answers their ids. */
  async function newOrganisation(teams: TestTeam[], rooms = 1) {
    const [organisation] = await db()
      .insert(organisations)
      .values({ name: `Org ${randomBytes(3).toString('hex')}` })
      .returning({ id: organisations.id });
    const organisationId = organisation!.id;
    if (teams.length > 0)
      await db()
        .insert(organisationTeams)
        .values(teams.map((t) => ({ teamId: t.id, organisationId })));
    const [building] = await db()
      .insert(buildings)
      .values({ organisationId, name: 'Main building' })
      .returning({ id: buildings.id });
    const rows = await db()
      .insert(studios)
      .values(
        Array.from({ length: rooms }, (_, i) => ({
          organisationId,
          buildingId: building!.id,
          name: `Room ${i + 1}`,
        })),
      )
      .returning({ id: studios.id });
    const [camp] = await db()
      .insert(camps)
      .values({
        organisationId,
        name: 'Summer camp',
        slug: `camp-${randomBytes(4).toString('hex')}`,
        startsOn: '2031-07-01',
        endsOn: '2031-07-07',
      })
      .returning({ id: camps.id });
    return { organisationId, studioIds: rows.map((r) => r.id), campId: camp!.id };
  }

  /** The webhook events of a team or an organisation, oldest first. */
  async function eventsOf(owner: { teamId: number } | { organisationId: number }) {
    const rows = await webhookEventsOf(db(), owner);
    return rows.map((r) => ({ type: r.type, data: r.data as Fields }));
  }

  /** The session's own events (`session.*`, not its bookings'), in the order they were committed. */
  async function activityOf(sessionId: number) {
    const rows = await db()
      .select({ action: domainEvents.type, data: domainEvents.payload })
      .from(domainEvents)
      .where(
        and(
          eq(domainEvents.subjectType, 'session'),
          eq(domainEvents.subjectId, String(sessionId)),
          like(domainEvents.type, 'session.%'),
        ),
      )
      .orderBy(asc(domainEvents.position));
    return rows;
  }

  return { newSession, newOrganisation, eventsOf, activityOf };
}
