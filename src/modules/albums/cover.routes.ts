import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { IdParams, NoContent } from '../../shared/schemas.ts';
import { fileRefusals } from '../files/files.schemas.ts';
import { AlbumCover, CoverUploadBody, CoverUploadUrl, SetCoverBody } from './cover.schemas.ts';
import { ALBUM_WRITERS, writeExtension } from './route-auth.ts';

/** The album cover: ask for an upload URL, PUT the image there, then set it with its fileKey. */
export async function albumCoverRoutes(app: App) {
  const cover = app.services.albumCover;

  app.post(
    '/api/v1/albums/:id/cover',
    {
      ...writeExtension,
      schema: {
        operationId: 'albums.cover.uploadUrl',
        summary: 'A signed URL to upload a cover image to',
        description:
          'PUT the image to `uploadUrl` with `headers`, then `PUT /api/v1/albums/{id}/cover {fileKey}`. ' +
          'The type comes from the file name (png, jpg, webp, gif, avif; 400 unsupported_file_type ' +
          `otherwise). ${ALBUM_WRITERS} Changes nothing until the cover is set.`,
        params: IdParams,
        body: CoverUploadBody,
        response: {
          200: CoverUploadUrl,
          ...fileRefusals,
        },
      },
    },
    async (request) => cover.createUploadUrl(principalOf(request), request.params.id, request.body),
  );

  app.put(
    '/api/v1/albums/:id/cover',
    {
      ...writeExtension,
      schema: {
        operationId: 'albums.cover.set',
        summary: "Set the uploaded image as the album's cover; the previous one is deleted",
        description:
          `${ALBUM_WRITERS} A fileKey that is not a cover upload of this album is 404; 409 upload_missing ` +
          'when nothing was PUT, upload_closed when it expired or was used; bytes that are not the ' +
          'announced image type are 400 and end the upload; 413 quota_exceeded when the team has no room. ' +
          "Answers the cover with signed links; recorded in the team's activity as `album.cover_set` (no " +
          'webhook).',
        params: IdParams,
        body: SetCoverBody,
        response: {
          200: AlbumCover,
          ...fileRefusals,
        },
      },
    },
    async (request) => cover.set(principalOf(request), request.params.id, request.body.fileKey),
  );

  app.delete(
    '/api/v1/albums/:id/cover',
    {
      ...writeExtension,
      schema: {
        operationId: 'albums.cover.delete',
        summary: 'Remove the album cover and its bytes; 404 when the album has none',
        description: `${ALBUM_WRITERS} Recorded in the team's activity as \`album.cover_removed\` (no webhook).`,
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await cover.remove(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
