import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp } from '../../../shared/schemas.ts';
import {
  CreateCoverBody as CoverUploadFields,
  EXAMPLE_RESUMABLE,
  LibraryFileFields,
  UploadTicketFields,
} from '../../files/files.schemas.ts';

export const CoverParams = Type.Object({ id: Id, coverId: Id });
export const CoverListQuery = Type.Object(PageQuery);

// The examples of track 101's cover; the link values are shortened tokens of the file store.
const EXAMPLE_TIME = '2026-03-14T09:30:00.000Z';
const COVER_URL = 'https://music.example.com/api/v1/files/download?token=eyJrIjoidGVhbXMvNy9jb3Zlci5wbmc';
const COVER_EXAMPLE = {
  id: 912,
  trackId: 101,
  fileName: 'night-drive-cover.png',
  fileSize: 1_048_576,
  mediaType: 'image/png',
  isCurrent: true,
  createdAt: EXAMPLE_TIME,
};

export const CreateCoverBody = Type.Object(CoverUploadFields.properties, {
  title: 'TrackCoverUploadCreate',
  examples: [{ fileName: 'night-drive-cover.png', fileSize: 1_048_576, mediaType: 'image/png' }],
});

const { id, fileName, fileSize, mediaType, createdAt } = LibraryFileFields;
const coverFields = {
  id,
  trackId: Id,
  fileName,
  fileSize,
  mediaType,
  isCurrent: Type.Boolean({ description: 'Whether this is the cover the track shows' }),
  createdAt,
};

/** A registered cover of a track. */
export const Cover = Type.Object(
  {
    ...coverFields,
    status: Type.Literal('ready'),
    url: Type.String({ description: 'Signed URL to show the image' }),
    downloadUrl: Type.String({ description: 'Signed URL to save the image under its name' }),
    urlExpiresAt: Timestamp,
  },
  {
    title: 'TrackCover',
    examples: [
      {
        ...COVER_EXAMPLE,
        status: 'ready',
        url: COVER_URL,
        downloadUrl: `${COVER_URL}IiwiZCI6ImEifQ`,
        urlExpiresAt: '2026-03-16T19:05:00.000Z',
      },
    ],
  },
);
export const CoverPage = Page(Cover);

/** A new cover waiting for its image, with the URL to upload it to. */
export const CoverUpload = Type.Object(
  {
    ...coverFields,
    status: Type.Literal('pending', { description: 'Waiting for POST .../covers/{coverId}/added' }),
    ...UploadTicketFields('fileKey', 'The key of the upload (registration uses the cover id)'),
  },
  {
    title: 'TrackCoverUpload',
    examples: [
      {
        ...COVER_EXAMPLE,
        id: 913,
        isCurrent: false,
        status: 'pending',
        uploadUrl: 'https://music.example.com/api/v1/files/upload?token=eyJrIjoicGVuZGluZy83LzljMWQ',
        resumable: EXAMPLE_RESUMABLE,
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        fileKey: 'pending/7/9c1d2e3f-4a5b-4c6d-8e7f-8a9b0c1d2e3f',
        expiresAt: '2026-03-14T10:30:00.000Z',
      },
    ],
  },
);

/** The cover a track shows, as the track answers it. */
export const CurrentCover = Type.Object(
  {
    id: Id,
    fileName: Type.String(),
    mediaType: Type.String(),
    url: Type.String({ description: 'Signed URL to show the image' }),
    urlExpiresAt: Timestamp,
  },
  {
    title: 'TrackCurrentCover',
    description: 'The current cover with a signed URL; null when the track has none',
    examples: [
      {
        id: 912,
        fileName: 'night-drive-cover.png',
        mediaType: 'image/png',
        url: COVER_URL,
        urlExpiresAt: '2026-03-16T19:05:00.000Z',
      },
    ],
  },
);
