import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery } from '../../../shared/schemas.ts';
import {
  EXAMPLE_RESUMABLE,
  LibraryFileFields,
  StoredFileFields,
  UploadFileName,
  UploadFileSize,
  UploadMediaType,
  UploadTicketFields,
} from '../../files/files.schemas.ts';

const EXAMPLE_TIME = '2026-03-14T09:30:00.000Z';
const MEDIA_EXAMPLE = {
  id: 880,
  status: 'ready',
  fileName: 'teaser.mp4',
  fileSize: 5_242_880,
  mediaType: 'video/mp4',
  kind: 'video',
  createdAt: EXAMPLE_TIME,
  trackId: 101,
};
const MEDIA_URL =
  'https://music.example.com/api/v1/files/download?token=eyJrIjoidGVhbXMvNy92aWRlby90ZWFzZXIubXA0';

export const TrackMediaParams = Type.Object({ id: Id, mediaId: Id });
export const TrackMediaListQuery = Type.Object(PageQuery);

export const CreateTrackMediaBody = Type.Object(
  {
    fileName: UploadFileName,
    fileSize: Type.Optional(UploadFileSize),
    mediaType: Type.Optional(UploadMediaType),
  },
  {
    title: 'TrackMediaUploadCreate',
    examples: [{ fileName: 'teaser.mp4', fileSize: 5_242_880, mediaType: 'video/mp4' }],
  },
);

const mediaFields = { ...LibraryFileFields, trackId: Id };

/** A file of a track beside its versions (video, artwork, documents, audio). */
export const TrackMedia = Type.Object(
  { ...mediaFields, ...StoredFileFields },
  {
    title: 'TrackMedia',
    description: 'A registered media file of a track; audio files add `audio` (facts) and `peaks`',
    examples: [
      {
        ...MEDIA_EXAMPLE,
        url: MEDIA_URL,
        downloadUrl: `${MEDIA_URL}IiwiZCI6ImEifQ`,
        urlExpiresAt: '2026-03-16T19:05:00.000Z',
        audio: null,
        peaks: { status: 'none' },
      },
    ],
  },
);
export const TrackMediaPage = Page(TrackMedia);

/** The new (pending) media with the URL to upload its bytes to. */
export const TrackMediaUpload = Type.Object(
  {
    ...mediaFields,
    ...UploadTicketFields('fileKey', 'The key of the upload (registration uses the media id)'),
  },
  {
    title: 'TrackMediaUpload',
    examples: [
      {
        ...MEDIA_EXAMPLE,
        status: 'pending',
        uploadUrl: 'https://music.example.com/api/v1/files/upload?token=eyJrIjoicGVuZGluZy83LzJiM2M',
        resumable: EXAMPLE_RESUMABLE,
        method: 'PUT',
        headers: { 'content-type': 'video/mp4' },
        fileKey: 'pending/7/2b3c4d5e-6f70-4a81-9b2c-3d4e5f607182',
        expiresAt: '2026-03-14T10:30:00.000Z',
      },
    ],
  },
);
