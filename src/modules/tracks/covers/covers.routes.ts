import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { EmptyBody, IdParams, NoContent } from '../../../shared/schemas.ts';
import { fileRefusals } from '../../files/files.schemas.ts';
import { conflictResponse } from '../../teams/conflict-response.ts';
import { acceptEmptyJsonBody } from '../../users/empty-body.ts';
import { read, write } from '../route-auth.ts';
import { OWNER_ONLY, READERS, WRITERS } from '../share-rules.ts';
import {
  Cover,
  CoverListQuery,
  CoverPage,
  CoverParams,
  CoverUpload,
  CreateCoverBody,
} from './covers.schemas.ts';

const BASE = '/api/v1/tracks/:id/covers';

/** Covers of a track: upload in two steps (URL, then `added`), list, choose the current one, delete. */
export async function coversRoutes(app: App) {
  const covers = app.services.trackCovers;

  app.get(
    BASE,
    {
      ...read,
      schema: {
        operationId: 'tracks.covers.list',
        summary:
          'The registered covers of a track, newest first, with signed URLs; isCurrent marks the shown one',
        description: `${READERS} Pending uploads are left out. Changes nothing.`,
        params: IdParams,
        querystring: CoverListQuery,
        response: { 200: CoverPage },
      },
    },
    async (request) => covers.list(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    BASE,
    {
      ...write,
      schema: {
        operationId: 'tracks.covers.create',
        summary: 'Start a cover upload: answers the pending cover and a signed URL to PUT its image to',
        description:
          'PUT the image to `uploadUrl` with `headers`, then confirm it with ' +
          '`POST /api/v1/tracks/{id}/covers/{coverId}/added`. With `fileSize`, the URL accepts exactly that ' +
          'many bytes. When the track has no current cover, the first cover confirmed becomes it. The type ' +
          'must be an image type (png, jpeg, webp, gif, avif; 400 unsupported_file_type otherwise). ' +
          `${WRITERS} ${OWNER_ONLY} Sends no event until the upload is confirmed.`,
        params: IdParams,
        body: CreateCoverBody,
        response: { 201: CoverUpload, ...fileRefusals },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await covers.create(principalOf(request), request.params.id, request.body)),
  );

  await app.register(async (scope: App) => {
    acceptEmptyJsonBody(scope);
    scope.post(
      `${BASE}/:coverId/added`,
      {
        config: { ...write.config, extension: true },
        schema: {
          operationId: 'tracks.covers.added',
          summary: 'Confirm a cover upload once its image is PUT: the file is checked, stored and accounted',
          description:
            'When the track has no current cover, this one becomes it. Calling it again after success ' +
            'answers the cover. Takes no body (or `{}`). Bytes that are not the announced image type, or not ' +
            'the announced size, are 400 and end the upload; a cover id that is not an upload of this track ' +
            "is 404. Recorded in the team's activity as `track.cover_added` (no webhook). " +
            `${WRITERS} ${OWNER_ONLY}`,
          params: CoverParams,
          body: EmptyBody,
          response: {
            200: Cover,
            ...fileRefusals,
            ...conflictResponse('upload_missing (nothing PUT yet) or upload_closed (expired or discarded)'),
          },
        },
      },
      async (request) => covers.added(principalOf(request), request.params.id, request.params.coverId),
    );

    scope.patch(
      `${BASE}/:coverId/current`,
      {
        ...write,
        schema: {
          operationId: 'tracks.covers.setCurrent',
          summary: 'Make this cover the one the track shows',
          description:
            'Takes no body (or `{}`). A cover whose image is not confirmed yet is 409; a cover of another ' +
            "track is 404. Recorded in the team's activity as `track.cover_set` (no webhook). " +
            `${WRITERS} ${OWNER_ONLY}`,
          params: CoverParams,
          body: EmptyBody,
          response: {
            200: Cover,
            ...conflictResponse('conflict: the cover is not uploaded and confirmed yet'),
          },
        },
      },
      async (request) => covers.setCurrent(principalOf(request), request.params.id, request.params.coverId),
    );
  });

  app.delete(
    `${BASE}/:coverId`,
    {
      ...write,
      schema: {
        operationId: 'tracks.covers.delete',
        summary: 'Delete a cover and its image, registered or pending',
        description:
          'Deleting the current cover leaves the track without one (`cover` null) until another is set. ' +
          "A registered cover's deletion is recorded in the team's activity as `track.cover_deleted` (no " +
          'webhook). ' +
          `${WRITERS} ${OWNER_ONLY}`,
        params: CoverParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await covers.remove(principalOf(request), request.params.id, request.params.coverId);
      return reply.code(204).send(null);
    },
  );
}
