import { Type } from '@sinclair/typebox';
import type { App } from '../../app.ts';
import { principalOf } from '../../plugins/auth.ts';
import { Id, IdParams, Timestamp } from '../../shared/schemas.ts';
import { read } from './route-auth.ts';

const Asset = Type.Object({
  fileId: Id,
  role: Type.Literal('version_audio', { description: 'What the file is to the track' }),
  versionId: Id,
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
        summary: 'Every registered file of a track with signed download URLs, in version order',
        params: IdParams,
        response: {
          200: Type.Object({
            items: Type.Array(Asset),
            nextCursor: Type.Null({ description: 'Always null: every file is in one answer' }),
          }),
        },
      },
    },
    async (request) => app.services.trackAssets.list(principalOf(request), request.params.id),
  );
}
