import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { EmptyBody, IdParams, NoContent } from '../../../shared/schemas.ts';
import { fileRefusals } from '../../files/files.schemas.ts';
import { conflictResponse } from '../../teams/conflict-response.ts';
import { acceptEmptyJsonBody } from '../../users/empty-body.ts';
import { read, session, write } from '../route-auth.ts';
import { OWNER_ONLY, READERS, SESSION_WRITERS, WRITERS } from '../share-rules.ts';
import {
  CreateTrackMediaBody,
  TrackMedia,
  TrackMediaListQuery,
  TrackMediaPage,
  TrackMediaParams,
  TrackMediaUpload,
} from './track-media.schemas.ts';

const BASE = '/api/v1/tracks/:id/media';

/** Files of a track beside its versions: upload in two steps (URL, then `added`), list, delete. */
export async function trackMediaRoutes(app: App) {
  const media = app.services.trackMedia;

  app.get(
    BASE,
    {
      config: { ...read.config, extension: true },
      schema: {
        operationId: 'tracks.media.list',
        summary: "The track's media files, newest first, with signed links (no waveform data)",
        description: `${READERS} Pending uploads are left out. Changes nothing.`,
        params: IdParams,
        querystring: TrackMediaListQuery,
        response: { 200: TrackMediaPage },
      },
    },
    async (request) => media.list(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    BASE,
    {
      ...session,
      schema: {
        operationId: 'tracks.media.create',
        summary: 'Start an upload of any file of a track (video, artwork, document, audio)',
        description:
          'Answers the pending media and a signed URL: PUT the bytes to `uploadUrl` with `headers`, then ' +
          'confirm with `POST /api/v1/tracks/{id}/media/{mediaId}/added`. The kind (audio, image, video, document) ' +
          'follows `mediaType`, or the file name when it is left out; with `fileSize` the URL accepts exactly ' +
          `that many bytes. ${SESSION_WRITERS} ${OWNER_ONLY} Sends no event until the upload is confirmed.`,
        params: IdParams,
        body: CreateTrackMediaBody,
        response: { 201: TrackMediaUpload, ...fileRefusals },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await media.create(principalOf(request), request.params.id, request.body)),
  );

  await app.register(async (scope: App) => {
    acceptEmptyJsonBody(scope);
    scope.post(
      `${BASE}/:mediaId/added`,
      {
        config: { ...session.config, extension: true },
        schema: {
          operationId: 'tracks.media.added',
          summary: 'Confirm a media upload once its bytes are PUT: the file is checked, stored and accounted',
          description:
            'Reads audio facts of audio files; waveform peaks follow in the background (`peaks.status`). ' +
            'Calling it again after success answers the media. Takes no body (or `{}`). Bytes that are not ' +
            'the announced type or size are 400 and end the upload; a media id that is not an upload of this ' +
            'track is 404. Sends the `track.media_added` webhook event. ' +
            `${SESSION_WRITERS} ${OWNER_ONLY}`,
          params: TrackMediaParams,
          body: EmptyBody,
          response: {
            200: TrackMedia,
            ...fileRefusals,
            ...conflictResponse('upload_missing (nothing PUT yet) or upload_closed (expired or discarded)'),
          },
        },
      },
      async (request) => media.added(principalOf(request), request.params.id, request.params.mediaId),
    );
  });

  app.delete(
    `${BASE}/:mediaId`,
    {
      config: { ...write.config, extension: true },
      schema: {
        operationId: 'tracks.media.delete',
        summary: 'Delete a media file of a track and its bytes, registered or pending',
        description:
          `${WRITERS} ${OWNER_ONLY} Deleting a registered file sends the \`track.media_deleted\` webhook ` +
          'event; a pending upload goes without one.',
        params: TrackMediaParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await media.remove(principalOf(request), request.params.id, request.params.mediaId);
      return reply.code(204).send(null);
    },
  );
}
