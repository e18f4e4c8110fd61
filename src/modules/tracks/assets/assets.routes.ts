import { Type } from '@sinclair/typebox';
import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { Id, IdParams, PageQuery, Timestamp } from '../../../shared/schemas.ts';
import { read } from '../route-auth.ts';
import { READERS } from '../share-rules.ts';
import { ASSET_ROLES } from './assets.ts';

const EXPIRES = '2026-03-16T19:05:00.000Z';
const link = (token: string) => `https://music.example.com/api/v1/files/download?token=${token}`;
const COVER_ASSET = {
  fileId: 912,
  role: 'cover',
  versionId: null,
  commentId: null,
  fileName: 'night-drive-cover.png',
  contentType: 'image/png',
  size: 1_048_576,
  createdAt: '2026-03-14T09:30:00.000Z',
  url: link('eyJrIjoidGVhbXMvNy9jb3Zlci5wbmc'),
  downloadUrl: link('eyJrIjoidGVhbXMvNy9jb3Zlci5wbmciLCJkIjoiYSJ9'),
  urlExpiresAt: EXPIRES,
};
const AUDIO_ASSET = {
  fileId: 733,
  role: 'version_audio',
  versionId: 502,
  commentId: null,
  fileName: 'night-drive-v2.wav',
  contentType: 'audio/wav',
  size: 41_203_712,
  createdAt: '2026-03-16T18:05:00.000Z',
  url: link('eyJrIjoidGVhbXMvNy9hdWRpby9uaWdodC1kcml2ZS12Mi53YXY'),
  downloadUrl: link('eyJrIjoidGVhbXMvNy9hdWRpby9uaWdodC1kcml2ZS12Mi53YXYiLCJkIjoiYSJ9'),
  urlExpiresAt: EXPIRES,
};

const Asset = Type.Object(
  {
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
    commentId: Type.Union([Id, Type.Null()], {
      description: 'The comment it is attached to, for attachments',
    }),
    fileName: Type.String(),
    contentType: Type.String(),
    size: Type.Integer(),
    createdAt: Timestamp,
    url: Type.String({ description: 'Signed URL to play or show the file in place' }),
    downloadUrl: Type.String({ description: 'Signed URL to download the file under its name' }),
    urlExpiresAt: Timestamp,
  },
  { title: 'TrackAsset', examples: [COVER_ASSET, AUDIO_ASSET] },
);

const AssetList = Type.Object(
  {
    items: Type.Array(Asset),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Cursor of the next page (pass it as `cursor`), null on the last page',
    }),
  },
  { title: 'TrackAssetList', examples: [{ items: [COVER_ASSET, AUDIO_ASSET], nextCursor: null }] },
);

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
          'and comment attachments. Pending uploads are left out, and so are stems whose audio the caller ' +
          'may not download (a restricted stem: see PUT .../stems/{stemId}/rights; the stem itself is still ' +
          `listed by GET .../stems, without links). ${READERS} The links are signed and expire. Changes nothing.`,
        params: IdParams,
        querystring: Type.Object(PageQuery),
        response: { 200: AssetList },
      },
    },
    async (request) =>
      app.services.trackAssets.list(principalOf(request), request.params.id, pageOf(request.query)),
  );
}
