import { Type } from '@sinclair/typebox';
import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { errorResponse, Id } from '../../../shared/schemas.ts';
import { session, sessionExtension, signedUrlExtension } from '../route-auth.ts';
import { SessionParams, TeamQuery } from '../sessions.schemas.ts';
import { FEED_DAYS_BACK, FEED_MAX_SESSIONS } from './calendar.service.ts';

const FeedUrls = Type.Object({
  icsUrl: Type.String({ description: 'The feed (RFC 5545), for calendar apps that take an https URL' }),
  webcalUrl: Type.String({ description: 'The same feed as a webcal: URL, which subscribes in one click' }),
});

const FeedParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 240, description: 'The token of a follow answer' }),
});

const CalendarResponse = {
  description:
    `The team's sessions from ${FEED_DAYS_BACK} days ago on (at most ${FEED_MAX_SESSIONS}), earliest first: ` +
    'one VEVENT per session with a stable UID, the studio as LOCATION, notes as DESCRIPTION, cancelled ' +
    'ones with STATUS:CANCELLED.',
  content: { 'text/calendar': { schema: { type: 'string', description: 'RFC 5545 iCalendar' } } },
};

const feedValidity =
  'The URL does not expire: it works while its holder is a member of the team and until they rotate it ' +
  '(POST /api/v1/sessions/calendar/rotate), which revokes every URL handed out before.';

/** Calendar feeds of a team's sessions: the URLs, their rotation, and the feed itself. */
export async function calendarRoutes(app: App) {
  const calendar = app.services.sessionCalendar;

  app.get(
    '/api/v1/sessions/:sessionId/follow',
    {
      ...session,
      schema: {
        operationId: 'sessions.follow',
        summary: "Calendar-feed URLs of the session's team, for the caller",
        description: `Members of the team. ${feedValidity}`,
        params: SessionParams,
        querystring: TeamQuery,
        response: { 200: FeedUrls },
      },
    },
    async (request) => calendar.follow(principalOf(request), request.params.sessionId, request.query.teamId),
  );

  app.post(
    '/api/v1/sessions/calendar/rotate',
    {
      ...sessionExtension,
      schema: {
        operationId: 'sessions.calendar.rotate',
        summary: "New calendar-feed URLs of a team for the caller, revoking the caller's earlier ones",
        body: Type.Object({ teamId: Id }),
        response: { 200: FeedUrls },
      },
    },
    async (request) => calendar.rotate(principalOf(request), request.body.teamId),
  );

  app.get(
    '/api/v1/sessions/calendar/:token.ics',
    {
      ...signedUrlExtension,
      schema: {
        operationId: 'sessions.calendar.feed',
        summary: "A team's studio sessions as an iCalendar feed (signed URL, no token)",
        description: `The signature is the authority. ${feedValidity} A tampered URL is 403 invalid_signature, a revoked one 404.`,
        params: FeedParams,
        response: {
          200: CalendarResponse,
          403: errorResponse('invalid_signature'),
          404: errorResponse('not_found: revoked, or its holder left the team'),
        },
      },
    },
    async (request, reply) => {
      const body = await calendar.feed(request.params.token);
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('content-disposition', 'inline; filename="sessions.ics"')
        .header('cache-control', 'private, max-age=300')
        .send(body);
    },
  );
}
