import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { IdParams, NoContent } from '../../shared/schemas.ts';
import { fileRefusals } from '../files/files.schemas.ts';
import { acceptEmptyJsonBody } from '../users/empty-body.ts';
import { conflictResponse } from './conflict-response.ts';
import {
  CreateMediaBody,
  EmptyBody,
  MediaListQuery,
  MediaParams,
  TeamMedia,
  TeamMediaPage,
  TeamMediaUpload,
} from './media.schemas.ts';

const session = { config: { auth: auth.session } } as const;
const extension = { config: { auth: auth.session, extension: true } } as const;

/** The team media library: upload in two steps (URL, then `added`), list, read, delete. */
export async function mediaRoutes(app: App) {
  const media = app.services.teamMedia;

  app.get(
    '/api/v1/teams/:id/media',
    {
      ...session,
      schema: {
        operationId: 'teams.media.list',
        summary: "The team's media files, newest first, with signed links (no waveform data)",
        params: IdParams,
        querystring: MediaListQuery,
        response: { 200: TeamMediaPage },
      },
    },
    async (request) => media.list(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    '/api/v1/teams/:id/media',
    {
      ...session,
      schema: {
        operationId: 'teams.media.create',
        summary: 'Start a media upload: answers the pending media and a signed URL to PUT its bytes to',
        description:
          'PUT the bytes to `uploadUrl` with `headers`, then confirm with ' +
          '`POST /api/v1/teams/{id}/media/{mediaId}/added`. Limits per kind (audio, image, video, document) and the ' +
          "plan's storage quota are checked here and again when the upload is confirmed.",
        params: IdParams,
        body: CreateMediaBody,
        response: { 201: TeamMediaUpload, ...fileRefusals },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await media.create(principalOf(request), request.params.id, request.body)),
  );

  await app.register(async (scope: App) => {
    acceptEmptyJsonBody(scope);
    scope.post(
      '/api/v1/teams/:id/media/:mediaId/added',
      {
        ...extension,
        schema: {
          operationId: 'teams.media.added',
          summary: 'Confirm a media upload once its bytes are PUT: the file is checked, stored and accounted',
          description:
            'Reads audio facts (duration, sample rate, channels, codec) of audio files; waveform peaks follow ' +
            'in the background (`peaks.status`). Calling it again after success answers the media. ' +
            'Takes no body (or `{}`).',
          params: MediaParams,
          body: EmptyBody,
          response: {
            200: TeamMedia,
            ...fileRefusals,
            ...conflictResponse('upload_missing (nothing PUT yet) or upload_closed (expired or discarded)'),
          },
        },
      },
      async (request) => media.added(principalOf(request), request.params.id, request.params.mediaId),
    );
  });

  app.get(
    '/api/v1/teams/:id/media/:mediaId',
    {
      ...extension,
      schema: {
        operationId: 'teams.media.get',
        summary: 'One media file, with its waveform peaks once computed',
        params: MediaParams,
        response: { 200: TeamMedia },
      },
    },
    async (request) => media.get(principalOf(request), request.params.id, request.params.mediaId),
  );

  app.delete(
    '/api/v1/teams/:id/media/:mediaId',
    {
      ...session,
      schema: {
        operationId: 'teams.media.delete',
        summary: 'Delete a media file and its bytes, registered or pending (owner or admin)',
        params: MediaParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await media.remove(principalOf(request), request.params.id, request.params.mediaId);
      return reply.code(204).send(null);
    },
  );
}
