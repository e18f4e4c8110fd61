import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../../shared/schemas.ts';
import {
  EXAMPLE_RESUMABLE,
  ImageUploadBody,
  RegisterUploadBody,
  singleImageFields,
  UploadTicketFields,
} from '../files/files.schemas.ts';

const COVER_KEY = 'pending/7/4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e7f';
const COVER_URL =
  'https://music.example.com/api/v1/files/download?token=eyJrIjoidGVhbXMvNy9pbWFnZS9uaWdodC1kcml2ZXMucG5n';

/** The cover of album 12 in the examples. */
export const ALBUM_COVER_EXAMPLE = {
  albumId: 12,
  fileId: 930,
  fileName: 'night-drives-cover.png',
  contentType: 'image/png',
  size: 2_097_152,
  url: COVER_URL,
  downloadUrl: `${COVER_URL}IiwiZCI6ImEifQ`,
  urlExpiresAt: '2026-03-16T19:05:00.000Z',
  createdAt: '2026-03-15T11:00:00.000Z',
};

export const CoverUploadBody = Type.Object(ImageUploadBody.properties, {
  title: 'AlbumCoverUploadCreate',
  examples: [{ fileName: 'night-drives-cover.png' }],
});

export const CoverUploadUrl = Type.Object(
  UploadTicketFields('fileKey', 'Send it to PUT /api/v1/albums/{id}/cover once the bytes are uploaded'),
  {
    title: 'AlbumCoverUpload',
    examples: [
      {
        uploadUrl: 'https://music.example.com/api/v1/files/upload?token=eyJrIjoicGVuZGluZy83LzRjNWQ',
        resumable: EXAMPLE_RESUMABLE,
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        fileKey: COVER_KEY,
        expiresAt: '2026-03-15T12:00:00.000Z',
      },
    ],
  },
);

export const SetCoverBody = Type.Object(RegisterUploadBody.properties, {
  title: 'AlbumCoverSet',
  examples: [{ fileKey: COVER_KEY }],
});

export const AlbumCover = Type.Object(
  {
    albumId: Id,
    ...singleImageFields('cover'),
    createdAt: Timestamp,
  },
  { title: 'AlbumCover', examples: [ALBUM_COVER_EXAMPLE] },
);
