import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { EmptyBody, IdParams, NoContent } from '../../shared/schemas.ts';
import { CreateCoverBody, fileRefusals } from '../files/files.schemas.ts';
import { conflictResponse } from '../teams/conflict-response.ts';
import { acceptEmptyJsonBody } from '../users/empty-body.ts';
import { session, sessionExtension, TOUR_MEMBERS } from './route-auth.ts';
import {
  CoverListQuery,
  CoverParams,
  PublicFlagBody,
  TourCover,
  TourCoverPage,
  TourCoverUpload,
} from './tour-covers.schemas.ts';

const BASE = '/api/v1/tours/:id/covers';
const NOT_UPLOADED = conflictResponse('conflict: the cover is not uploaded and confirmed yet');

/** Covers of a tour: upload in two steps (URL, then `added`), list, choose the current one, publish, delete. */
export async function tourCoversRoutes(app: App) {
  const covers = app.services.tourCovers;

  app.get(
    BASE,
    {
      ...session,
      schema: {
        operationId: 'tours.covers.list',
        summary: 'The registered covers of a tour, newest first, with signed URLs',
        description:
          `${TOUR_MEMBERS} isCurrent marks the cover the tour shows; publicUrl is set on public covers. ` +
          'Uploads not confirmed yet are not listed. Keyset pages.',
        params: IdParams,
        querystring: CoverListQuery,
        response: { 200: TourCoverPage },
      },
    },
    async (request) => covers.list(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    BASE,
    {
      ...session,
      schema: {
        operationId: 'tours.covers.create',
        summary: 'Start a cover upload: answers the pending cover and a signed URL to PUT its image to',
        description:
          `${TOUR_MEMBERS} PUT the image to \`uploadUrl\` with \`headers\`, then confirm it with ` +
          '`POST /api/v1/tours/{id}/covers/{coverId}/added`. With `fileSize`, the URL accepts exactly that ' +
          "many bytes. Images only; the team's storage quota applies. When the tour has no current cover, " +
          'the first cover confirmed becomes it.',
        params: IdParams,
        body: CreateCoverBody,
        response: { 201: TourCoverUpload, ...fileRefusals },
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
        ...sessionExtension,
        schema: {
          operationId: 'tours.covers.added',
          summary: 'Confirm a cover upload once its image is PUT: the file is checked, stored and accounted',
          description:
            `${TOUR_MEMBERS} The bytes are checked (an image of the announced type and size) and counted ` +
            'towards the quota (see 400, 409, 413). When the tour has no current cover, this one becomes it. ' +
            'Calling it again after success ' +
            'answers the cover. Takes no body (or `{}`).',
          params: CoverParams,
          body: EmptyBody,
          response: {
            200: TourCover,
            ...fileRefusals,
            ...conflictResponse('upload_missing (nothing PUT yet) or upload_closed (expired or discarded)'),
          },
        },
      },
      async (request) => covers.added(principalOf(request), request.params.id, request.params.coverId),
    );

    scope.put(
      `${BASE}/:coverId/current`,
      {
        ...session,
        schema: {
          operationId: 'tours.covers.setCurrent',
          summary: 'Make this cover the one the tour shows',
          description:
            `${TOUR_MEMBERS} The tour's \`cover\` becomes this one. Takes no body (or \`{}\`). A cover ` +
            'whose image is not confirmed yet is 409 `conflict`; a cover of another tour is 404.',
          params: CoverParams,
          body: EmptyBody,
          response: { 200: TourCover, ...NOT_UPLOADED },
        },
      },
      async (request) => covers.setCurrent(principalOf(request), request.params.id, request.params.coverId),
    );
  });

  app.put(
    `${BASE}/:coverId/public`,
    {
      ...session,
      schema: {
        operationId: 'tours.covers.setPublic',
        summary: 'Make a cover public (served to anyone at publicUrl) or private again',
        description:
          `${TOUR_MEMBERS} Making a cover public gives it a publicUrl with a random 256-bit token: anyone may fetch the ` +
          'image there, without a token, while it stays public (making it public again keeps the URL). ' +
          'Making it private, or deleting the cover or its tour, makes that URL answer 404 at once; making ' +
          'it public once more gives a new URL. A cover whose image is not confirmed yet is 409.',
        params: CoverParams,
        body: PublicFlagBody,
        response: { 200: TourCover, ...NOT_UPLOADED },
      },
    },
    async (request) =>
      covers.setPublic(
        principalOf(request),
        request.params.id,
        request.params.coverId,
        request.body.isPublic,
      ),
  );

  app.delete(
    `${BASE}/:coverId`,
    {
      ...session,
      schema: {
        operationId: 'tours.covers.delete',
        summary: 'Delete a cover and its image, registered or pending',
        description:
          `${TOUR_MEMBERS} Deleting the current cover leaves the tour without one (\`cover\` null) until ` +
          'another is set; a public cover stops being served at once. A pending upload can be deleted too.',
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
