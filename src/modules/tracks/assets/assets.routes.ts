import { Type } from '@sinclair/typebox';
import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { Id, IdParams, PageQuery, Timestamp } from '../../../shared/schemas.ts';
import { read } from '../route-auth.ts';
import { ASSET_ROLES } from './assets.ts';

const Asset = Type.Object({
  fileId: Id,
  role: Type.Union(
    Object.values(ASSET_ROLES).map((role) => Type.Literal(role)),
    {
      description:
        'What the file is to the track: cover, media (track files beside the versions), version_audio, ' +
        'stem, version_file (additional file of a version), comment_attachment',
    },
  ),
  versionId: Type.Union([Id, Type.Null()], {
    description: 'The version it belongs to; null for covers and media',
  }),
  commentId: Type.Union([Id, Type.Null()], { description: 'The comment it is attached to, for attachments' }),
  fileName: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
  createdAt: Timestamp,
  url: Type.String({ description: 'Signed URL to play or show the file in place' }),
  downloadUrl: Type.String({ description: 'Signed URL to download the file under its name' }),
  urlExpiresAt: Timestamp,
});

/** The files of a track. */
export async function assetsRoutes(app: App) {
  app.get(
    '/api/v1/tracks/:id/assets',
    {
      ...read,
      schema: {
        operationId: 'tracks.assets.list',
        summary: 'Every registered file of a track with signed download URLs',
        description:
          'Covers and media first, then per version in version order its audio, stems, additional files ' +
          'and comment attachments. Pending uploads are left out.',
        params: IdParams,
        querystring: Type.Object(PageQuery),
        response: {
          200: Type.Object({
            items: Type.Array(Asset),
            nextCursor: Type.Union([Type.String(), Type.Null()]),
          }),
        },
      },
    },
    async (request) =>
      app.services.trackAssets.list(principalOf(request), request.params.id, pageOf(request.query)),
  );
}
