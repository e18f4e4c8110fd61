import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { NoContent } from '../../../shared/schemas.ts';
import { fileRefusals } from '../../files/files.schemas.ts';
import { conflictResponse } from '../../teams/conflict-response.ts';
import { acceptEmptyJsonBody } from '../../users/empty-body.ts';
import { MEMBERS, READERS, SESSION_ONLY, session } from '../route-auth.ts';
import { EmptyBody, SessionParams } from '../sessions.schemas.ts';
import {
  CreateSessionFileBody,
  SessionFile,
  SessionFileListQuery,
  SessionFilePage,
  SessionFileParams,
  SessionFileUpload,
  SessionFileUrl,
} from './session-files.schemas.ts';

/** Files shared in a session: upload in two steps (URL, then `added`), list, signed links, delete. */
export async function sessionFilesRoutes(app: App) {
  const sessionFiles = app.services.sessionFiles;

  app.get(
    '/api/v1/sessions/:sessionId/files',
    {
      ...session,
      schema: {
        operationId: 'sessions.files.list',
        summary: "The session's files, newest first, with signed links (no waveform data)",
        description:
          `${SESSION_ONLY} ${READERS} Uploads not confirmed yet are not listed. Keyset pages: pass ` +
          'nextCursor as cursor.',
        params: SessionParams,
        querystring: SessionFileListQuery,
        response: { 200: SessionFilePage },
      },
    },
    async (request) =>
      sessionFiles.list(principalOf(request), request.params.sessionId, pageOf(request.query)),
  );

  app.post(
    '/api/v1/sessions/:sessionId/files',
    {
      ...session,
      schema: {
        operationId: 'sessions.files.create',
        summary: 'Start a file upload: answers the pending file and a signed URL to PUT its bytes to',
        description:
          `${SESSION_ONLY} ${MEMBERS} PUT the bytes to \`uploadUrl\` with \`headers\`, then confirm with ` +
          'POST /api/v1/sessions/{sessionId}/files/{mediaId}/added. The file counts towards the ' +
          "team's storage quota; limits per kind apply here and again when it is confirmed.",
        params: SessionParams,
        body: CreateSessionFileBody,
        response: { 201: SessionFileUpload, ...fileRefusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await sessionFiles.create(principalOf(request), request.params.sessionId, request.body)),
  );

  await app.register(async (scope: App) => {
    acceptEmptyJsonBody(scope);
    scope.post(
      '/api/v1/sessions/:sessionId/files/:mediaId/added',
      {
        ...session,
        schema: {
          operationId: 'sessions.files.added',
          summary: 'Confirm a file upload once its bytes are PUT: the file is checked, stored and accounted',
          description:
            `${SESSION_ONLY} ${MEMBERS} Reads audio facts of audio files; waveform peaks follow in the ` +
            'background (`peaks.status`). Calling it again after success answers the file. 404 for a file ' +
            'of another session. Takes no body (or `{}`).',
          params: SessionFileParams,
          body: EmptyBody,
          response: {
            200: SessionFile,
            ...fileRefusals,
            ...conflictResponse(
              'upload_missing (nothing PUT yet), upload_registering (another confirmation is storing it; ' +
                'retry) or upload_closed (expired or discarded)',
            ),
          },
        },
      },
      async (request) =>
        sessionFiles.added(principalOf(request), request.params.sessionId, request.params.mediaId),
    );
  });

  app.delete(
    '/api/v1/sessions/:sessionId/files/:mediaId',
    {
      ...session,
      schema: {
        operationId: 'sessions.files.delete',
        summary: 'Delete a file of the session and its bytes, registered or pending (any member of the team)',
        description: `${SESSION_ONLY} ${MEMBERS} The storage it used is freed. 404 for a file of another session.`,
        params: SessionFileParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await sessionFiles.remove(principalOf(request), request.params.sessionId, request.params.mediaId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/sessions/:sessionId/files/:mediaId/url',
    {
      ...session,
      schema: {
        operationId: 'sessions.files.url',
        summary: 'Signed, expiring links to a file of the session',
        description:
          `${SESSION_ONLY} ${READERS} 404 for a file of another session and for an upload not confirmed ` +
          'yet. Ask again once the links expire.',
        params: SessionFileParams,
        response: { 200: SessionFileUrl },
      },
    },
    async (request) =>
      sessionFiles.url(principalOf(request), request.params.sessionId, request.params.mediaId),
  );
}
