import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { IdParams } from '../../../shared/schemas.ts';
import { SessionPage } from '../../sessions/sessions.schemas.ts';
import { CampRefParams } from '../camps/camps.schemas.ts';
import { SESSION_ONLY, session } from '../route-auth.ts';
import { CampWeek, MAX_WEEK_SESSIONS, OrganisationSessionsQuery, WeekQuery } from './schedule.schemas.ts';

/** Studio sessions seen from an organisation and from a camp. */
export async function scheduleRoutes(app: App) {
  const { schedule } = app.services.organisations;

  app.get(
    '/api/v1/organisations/:id/sessions',
    {
      ...session,
      schema: {
        operationId: 'organisations.sessions.list',
        summary:
          "Studio sessions of the organisation's teams and sessions booked in its studios, soonest first",
        description:
          `${SESSION_ONLY} Readable by the organisation's members and by the members of its teams (anyone ` +
          'else: 404). `from` and `to` bound the start time (`from` inclusive, `to` exclusive; `from` after ' +
          '`to` is 400); every status is listed unless `status` is given. Keyset pages: pass nextCursor as ' +
          'cursor with the same filters.',
        params: IdParams,
        querystring: OrganisationSessionsQuery,
        response: { 200: SessionPage },
      },
    },
    async (request) => {
      const { limit, ...query } = request.query;
      return schedule.organisationSessions(principalOf(request), request.params.id, {
        ...query,
        limit: limit ?? 50,
      });
    },
  );

  app.get(
    '/api/v1/camps/:camp/week',
    {
      ...session,
      schema: {
        operationId: 'camps.week',
        summary: "The camp's sessions grouped by day",
        description:
          `${SESSION_ONLY} Anyone who reads the camp's organisation (anyone else: 404). \`{camp}\` is the ` +
          "camp's id or slug. Every day of the camp is listed (empty ones too) with the " +
          'sessions linked to the camp that start that day in `timezone` (default UTC), earliest first; ' +
          `cancelled sessions are left out; at most ${MAX_WEEK_SESSIONS} sessions. An unknown time zone is 400.`,
        params: CampRefParams,
        querystring: WeekQuery,
        response: { 200: CampWeek },
      },
    },
    async (request) => schedule.campWeek(principalOf(request), request.params.camp, request.query.timezone),
  );
}
