import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { EmptyBody, IdParams, NoContent } from '../../shared/schemas.ts';
import { fileRefusals } from '../files/files.schemas.ts';
import { acceptEmptyJsonBody } from '../users/empty-body.ts';
import { conflictResponse } from './conflict-response.ts';
import {
  CreateMediaBody,
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
        description:
          'Session tokens only; any member of the team (404 otherwise). Pending uploads are listed too ' +
          '(`status: pending`, no links). Signed links expire at `urlExpiresAt`. Changes nothing.',
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
          'Session tokens only; any member of the team (404 otherwise). ' +
          'PUT the bytes to `uploadUrl` with `headers`, then confirm with ' +
          '`POST /api/v1/teams/{id}/media/{mediaId}/added`. Limits per kind (audio, image, video, document) and the ' +
          "plan's storage quota are checked here and again when the upload is confirmed: 400 " +
          '`unsupported_file_type`, 409 `too_many_open_uploads`, 413 `payload_too_large` or `quota_exceeded`.',
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
            "Session tokens only; any member of the team (404 for an unknown media or another team's). " +
            'Reads audio facts (duration, sample rate, channels, codec) of audio files; waveform peaks follow ' +
            'in the background (`peaks.status`). Calling it again after success answers the media. ' +
            'Takes no body (or `{}`). 400 `unsupported_file_type` or `size_mismatch`, 409 `upload_missing`, ' +
            '`upload_registering` or `upload_closed`, 413 `quota_exceeded` (the upload then ends).',
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
        description:
          'Session tokens only; any member of the team. A pending upload answers without links. 404 for an ' +
          "unknown media or another team's. Changes nothing.",
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
        description:
          'Session tokens only; owners and admins (403 `forbidden` for members). The bytes are deleted and ' +
          "their size leaves the team's storage use; signed links stop working. 404 for an unknown media or " +
          "another team's.",
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
