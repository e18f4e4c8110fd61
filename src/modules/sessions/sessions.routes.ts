import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { countedPageOf, pageOf } from '../../shared/pagination.ts';
import { errorResponse, NoContent } from '../../shared/schemas.ts';
import { MEMBERS, SESSION_ONLY, session, sessionExtension } from './route-auth.ts';
import {
  CreateSessionBody,
  DEFAULT_SESSION_HOURS,
  DeleteSessionQuery,
  ListQuery,
  LiveQuery,
  RequiredTeamPageQuery,
  Session,
  SessionListPage,
  SessionPage,
  SessionParams,
  SessionPatchBody,
  TeamQuery,
} from './sessions.schemas.ts';

const bookingConflict = {
  409: errorResponse(
    'conflict: the studio is booked by another session (not cancelled) for part of [startsAt, endsAt)',
  ),
};

/** Sessions themselves: lists, create, read, and (extensions) change and delete. */
export async function sessionsRoutes(app: App) {
  const sessions = app.services.sessions;

  app.get(
    '/api/v1/sessions/',
    {
      ...session,
      schema: {
        operationId: 'sessions.list',
        summary: "List the caller's studio sessions, latest start first",
        description:
          `${SESSION_ONLY} ` +
          "With teamId, that team's sessions (404 when the caller is not a member); without it, every " +
          "session of the caller's teams and those they accepted to join. from (inclusive) and to " +
          '(exclusive) bound startsAt. Keyset pages: pass nextCursor as cursor with the same filters.',
        querystring: ListQuery,
        response: { 200: SessionListPage },
      },
    },
    async (request) => {
      const { limit, cursor, count, ...filters } = request.query;
      return sessions.list(principalOf(request), { ...filters, ...countedPageOf({ limit, cursor, count }) });
    },
  );

  app.post(
    '/api/v1/sessions/',
    {
      ...session,
      schema: {
        operationId: 'sessions.create',
        summary: 'Create a studio session, booking a studio when one is given',
        description:
          `${SESSION_ONLY} Any member of the team (404 for a team the caller is not in). endsAt defaults to ` +
          `startsAt + ${DEFAULT_SESSION_HOURS} h and must be after startsAt (400). A studioId books ` +
          "that studio of the team's organisation for [startsAt, endsAt) and emits booking.created to the " +
          "team's and the organisation's webhooks. New sessions are scheduled. 404 when studioId or campId " +
          "is not a studio or camp of the team's organisation; 409 when the studio is booked for part of " +
          'that time.',
        body: CreateSessionBody,
        response: { 201: Session, ...bookingConflict },
      },
    },
    async (request, reply) => reply.code(201).send(await sessions.create(principalOf(request), request.body)),
  );

  app.get(
    '/api/v1/sessions/live',
    {
      ...session,
      schema: {
        operationId: 'sessions.live',
        summary: "The caller's sessions running now",
        description:
          `${SESSION_ONLY} ` +
          "Sessions of the caller's teams and sessions they accepted to join that are live (whatever their " +
          'times), or scheduled with now in [startsAt, endsAt); earliest start first.',
        querystring: LiveQuery,
        response: { 200: SessionPage },
      },
    },
    async (request) => sessions.live(principalOf(request), pageOf(request.query)),
  );

  app.get(
    '/api/v1/sessions/upcoming',
    {
      ...session,
      schema: {
        operationId: 'sessions.upcoming',
        summary: "The team's next sessions",
        description:
          `${SESSION_ONLY} Members of the team (404 otherwise). Scheduled sessions of the team that start ` +
          'after now, soonest first. Keyset pages: pass nextCursor as cursor with the same teamId.',
        querystring: RequiredTeamPageQuery,
        response: { 200: SessionPage },
      },
    },
    async (request) => {
      const { teamId, ...page } = request.query;
      return sessions.upcoming(principalOf(request), teamId, pageOf(page));
    },
  );

  app.get(
    '/api/v1/sessions/:sessionId',
    {
      ...session,
      schema: {
        operationId: 'sessions.get',
        summary: 'One studio session',
        description:
          `${SESSION_ONLY} Members of the team read it, and so does anyone invited to it (read-only: ` +
          'invitees who are not members of the team change nothing but their own answer). teamId, when ' +
          "given, must be the session's team; 404 for another team, or a caller who is neither a member nor " +
          'invited.',
        params: SessionParams,
        querystring: TeamQuery,
        response: { 200: Session },
      },
    },
    async (request) => sessions.get(principalOf(request), request.params.sessionId, request.query.teamId),
  );

  app.patch(
    '/api/v1/sessions/:sessionId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'sessions.update',
        summary: 'Change a session: title, times, studio, camp, notes or status',
        description:
          `${SESSION_ONLY} ${MEMBERS} teamId, when given, must be the session's team (else 404). A booking ` +
          'moved (times or studio) emits booking.updated; one that ends (status cancelled, or studioId ' +
          'null) booking.cancelled; a new one booking.created (webhooks of the team and the organisation). ' +
          '400 when endsAt would not be after startsAt, or no field besides teamId is given; 404 for a ' +
          "studioId or campId outside the team's organisation; 409 when the studio is booked for part of " +
          'the new time.',
        params: SessionParams,
        body: SessionPatchBody,
        response: { 200: Session, ...bookingConflict },
      },
    },
    async (request) => sessions.update(principalOf(request), request.params.sessionId, request.body),
  );

  app.delete(
    '/api/v1/sessions/:sessionId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'sessions.delete',
        summary: 'Delete a session with its participants, files, songs, recordings, markers and canvas',
        description:
          `${SESSION_ONLY} ${MEMBERS} teamId, when given, must be the session's team (else 404). Its files ` +
          'go with it (their storage is freed). A booking it held is cancelled (booking.cancelled to the ' +
          'webhooks of the team and the organisation).',
        params: SessionParams,
        querystring: DeleteSessionQuery,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await sessions.remove(principalOf(request), request.params.sessionId, request.query.teamId);
      return reply.code(204).send(null);
    },
  );
}
