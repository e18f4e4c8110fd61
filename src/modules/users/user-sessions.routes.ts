import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { NoContent } from '../../shared/schemas.ts';
import { SESSIONS_LISTED } from './user-sessions.repository.ts';
import { EndedSessions, UserSessionList, UserSessionParams } from './users.schemas.ts';

const session = { config: { auth: auth.session } } as const;

/** `/api/v1/user/sessions`: the sign-ins the user holds, and ending them. */
export async function userSessionsRoutes(app: App) {
  const sessions = app.services.users.sessions;

  app.get(
    '/api/v1/user/sessions',
    {
      ...session,
      schema: {
        operationId: 'user.sessions.list',
        summary: 'The signed-in user’s live sessions',
        description:
          'Session tokens only (an API key gets 403 `session_required`). ' +
          'Every session that is neither signed out nor expired, most recently used first (at most ' +
          `${SESSIONS_LISTED}). \`lastUsedAt\` and \`ip\` are those of the sign-in or of the latest refresh-token ` +
          'rotation (requests with an access token do not stamp them, so they lag by up to the access ' +
          'token lifetime). `current` marks the session of the calling token.',
        response: { 200: UserSessionList },
      },
    },
    async (request) => sessions.list(principalOf(request)),
  );

  app.delete(
    '/api/v1/user/sessions/:id',
    {
      ...session,
      schema: {
        operationId: 'user.sessions.delete',
        summary: 'End one of the signed-in user’s sessions',
        description:
          'Session tokens only. Its access and refresh tokens stop working at once, on every server. Ending ' +
          'the calling session signs out. 404 for a session that is not the user’s or no longer live.',
        params: UserSessionParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await sessions.end(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/user/sessions/end-others',
    {
      ...session,
      schema: {
        operationId: 'user.sessions.endOthers',
        summary: 'Sign out everywhere else',
        description:
          'Session tokens only. Ends every live session of the user except the calling one (their access and ' +
          'refresh tokens stop working at once); answers how many ended.',
        response: { 200: EndedSessions },
      },
    },
    async (request) => sessions.endOthers(principalOf(request)),
  );
}
