import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { errorResponse } from '../../../shared/schemas.ts';
import { conflictResponse } from '../../teams/conflict-response.ts';
import { MEMBERS, READERS, SESSION_ONLY, session, sessionExtension } from '../route-auth.ts';
import { SessionParams, TeamQuery } from '../sessions.schemas.ts';
import { Canvas, IfMatchHeaders, MAX_CANVAS_BYTES, PutCanvasBody } from './canvas.schemas.ts';

const etag = (version: number) => `"${version}"`;

/** The shared canvas of a session. */
export async function canvasRoutes(app: App) {
  const canvas = app.services.sessionCanvas;

  app.get(
    '/api/v1/sessions/:sessionId/canvas',
    {
      ...session,
      schema: {
        operationId: 'sessions.canvas.get',
        summary: "The session's shared canvas: {version, content, updatedAt, updatedBy}",
        description:
          `${SESSION_ONLY} ${READERS} teamId must be the session's team (else 404). Version 0 and ` +
          'content {} before the first write. The ETag header carries the version too (`"3"`).',
        params: SessionParams,
        querystring: TeamQuery,
        response: { 200: Canvas },
      },
    },
    async (request, reply) => {
      const found = await canvas.get(principalOf(request), request.params.sessionId, request.query.teamId);
      return reply.header('etag', etag(found.version)).send(found);
    },
  );

  app.put(
    '/api/v1/sessions/:sessionId/canvas',
    {
      ...sessionExtension,
      schema: {
        operationId: 'sessions.canvas.put',
        summary: 'Replace the canvas content, based on the version the writer read',
        description:
          `${SESSION_ONLY} ${MEMBERS} teamId, when given, must be the session's team (else 404). The ` +
          '`If-Match` header is required: it names the version the change is based on (the bare number GET ' +
          'answers, 0 before the first write): without it 428 precondition_required; a value that names no ' +
          'version 400; when another write came first 409 conflict (read again, merge, retry). Answers the ' +
          'canvas at its new version, with its ETag. Content is ' +
          `at most ${MAX_CANVAS_BYTES / 1024} KiB (413 payload_too_large). Emits session.canvas.updated ` +
          '`{version}` on the event stream.',
        params: SessionParams,
        headers: IfMatchHeaders,
        body: PutCanvasBody,
        response: {
          200: Canvas,
          ...conflictResponse('conflict: the canvas changed since the version in If-Match'),
          413: errorResponse('payload_too_large'),
          428: errorResponse('precondition_required: If-Match is missing'),
        },
      },
    },
    async (request, reply) => {
      const written = await canvas.put(principalOf(request), request.params.sessionId, {
        ...request.body,
        ifMatch: request.headers['if-match'],
      });
      return reply.header('etag', etag(written.version)).send(written);
    },
  );
}
