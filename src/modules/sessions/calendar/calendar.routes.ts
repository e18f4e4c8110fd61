import { Type } from '@sinclair/typebox';
import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { errorResponse, Id } from '../../../shared/schemas.ts';
import { SESSION_ONLY, session, sessionExtension, signedUrlExtension } from '../route-auth.ts';
import { EXAMPLE, SessionParams, TeamQuery } from '../sessions.schemas.ts';
import { FEED_DAYS_BACK, FEED_MAX_SESSIONS } from './calendar.service.ts';

const FEED_TOKEN_EXAMPLE = 'eyJ0Ijo3LCJ1IjoiMDE5M2E1ZjIiLCJ2IjoxfQ.q9Lr2TcVh0WmXs8bNf3KdPz7YeA1uG5o';

const FeedUrls = Type.Object(
  {
    icsUrl: Type.String({ description: 'The feed (RFC 5545), for calendar apps that take an https URL' }),
    webcalUrl: Type.String({ description: 'The same feed as a webcal: URL, which subscribes in one click' }),
  },
  {
    title: 'SessionCalendarFeed',
    examples: [
      {
        icsUrl: `https://music.example.com/api/v1/sessions/calendar/${FEED_TOKEN_EXAMPLE}.ics`,
        webcalUrl: `webcal://music.example.com/api/v1/sessions/calendar/${FEED_TOKEN_EXAMPLE}.ics`,
      },
    ],
  },
);

const RotateFeedBody = Type.Object(
  { teamId: { ...Id, description: 'The team whose feed URLs of the caller are replaced' } },
  { title: 'SessionCalendarRotate', examples: [{ teamId: EXAMPLE.teamId }] },
);

const FeedParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 240, description: 'The token of a follow answer' }),
});

const CalendarResponse = {
  description:
    `The team's sessions from ${FEED_DAYS_BACK} days ago on (at most ${FEED_MAX_SESSIONS}), earliest first: ` +
    'one VEVENT per session with a stable UID, the studio as LOCATION, notes as DESCRIPTION, cancelled ' +
    'ones with STATUS:CANCELLED.',
  content: {
    'text/calendar': {
      schema: { type: 'string', description: 'RFC 5545 iCalendar' },
      example: [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Team Music Workspace//Studio sessions//EN',
        'NAME:Luna Vale: studio sessions',
        'X-WR-CALNAME:Luna Vale: studio sessions',
        'REFRESH-INTERVAL;VALUE=DURATION:PT15M',
        'X-PUBLISHED-TTL:PT15M',
        'BEGIN:VEVENT',
        'UID:studio-session-42@music.example.com',
        'SEQUENCE:0',
        'DTSTAMP:20260310T080000Z',
        'DTSTART:20260314T093000Z',
        'DTEND:20260314T133000Z',
        'SUMMARY:Night Drive – lead vocals',
        'LOCATION:Studio A',
        'DESCRIPTION:Bring the lyric sheet of the second verse',
        'STATUS:CONFIRMED',
        'CREATED:20260301T100000Z',
        'LAST-MODIFIED:20260302T164500Z',
        'END:VEVENT',
        'END:VCALENDAR',
      ].join('\r\n'),
    },
  },
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
        description:
          `${SESSION_ONLY} Members of the session's team (404 for anyone else, invited people too, and for ` +
          `another teamId). The feed holds every session of the team, not only this one. ${feedValidity}`,
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
        description:
          `${SESSION_ONLY} Members of the team (404 otherwise). Every feed URL of this team handed out to ` +
          "the caller before answers 404 from now on; other members' URLs keep working.",
        body: RotateFeedBody,
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
        description:
          `Anonymous: the signature is the authority, so calendar apps subscribe without a token. ${feedValidity} ` +
          'A tampered URL is 403 invalid_signature, a revoked one (or one whose holder left the team) 404. ' +
          'Served with Cache-Control: private, max-age=300.',
        params: FeedParams,
        response: {
          200: CalendarResponse,
          403: errorResponse('invalid_signature: the URL was tampered with or truncated'),
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
