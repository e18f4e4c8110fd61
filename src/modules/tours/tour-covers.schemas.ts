import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp } from '../../shared/schemas.ts';
import { EXAMPLE_RESUMABLE, LibraryFileFields, UploadTicketFields } from '../files/files.schemas.ts';

export const CoverParams = Type.Object({ id: Id, coverId: Id });
export const CoverListQuery = Type.Object(PageQuery);

export const PublicFlagBody = Type.Object(
  {
    isPublic: Type.Boolean({
      description:
        'true: anyone may fetch the image at publicUrl, without a token; false: that URL answers 404 at once',
    }),
  },
  { title: 'TourCoverVisibility', examples: [{ isPublic: true }] },
);

const { id, fileName, fileSize, mediaType, createdAt } = LibraryFileFields;
const coverFields = {
  id,
  tourId: Id,
  fileName,
  fileSize,
  mediaType,
  isCurrent: Type.Boolean({ description: 'Whether this is the cover the tour shows' }),
  isPublic: Type.Boolean({ description: 'Whether anyone may fetch it at publicUrl' }),
  publicUrl: Type.Union([Type.String(), Type.Null()], {
    description:
      'Stable, unguessable URL serving the image to anyone while the cover is public; null while private',
  }),
  createdAt,
};

const EXAMPLE_COVER = {
  id: 61,
  tourId: 9,
  fileName: 'night-drives-tour.jpg',
  fileSize: 482113,
  mediaType: 'image/jpeg',
  isCurrent: true,
  isPublic: false,
  publicUrl: null,
  createdAt: '2026-03-14T09:30:00.000Z',
};

/** A registered cover of a tour. */
export const TourCover = Type.Object(
  {
    ...coverFields,
    status: Type.Literal('ready'),
    url: Type.String({ description: 'Signed URL to show the image' }),
    downloadUrl: Type.String({ description: 'Signed URL to save the image under its name' }),
    urlExpiresAt: Timestamp,
  },
  {
    title: 'TourCover',
    description: 'A registered cover image of a tour',
    examples: [
      {
        ...EXAMPLE_COVER,
        status: 'ready',
        url: 'https://api.example.com/api/v1/files/download?key=t7%2Ff61&expires=1773484200&sig=9e1f3a',
        downloadUrl:
          'https://api.example.com/api/v1/files/download?key=t7%2Ff61&expires=1773484200&download=1&sig=0a2b4c',
        urlExpiresAt: '2026-03-14T10:30:00.000Z',
      },
    ],
  },
);
export const TourCoverPage = Page(TourCover);

/** A new cover waiting for its image, with the URL to upload it to. */
export const TourCoverUpload = Type.Object(
  {
    ...coverFields,
    status: Type.Literal('pending', { description: 'Waiting for POST .../covers/{coverId}/added' }),
    ...UploadTicketFields('fileKey', 'The key of the upload (registration uses the cover id)'),
  },
  {
    title: 'TourCoverUpload',
    description: 'A new cover waiting for its image, with the signed URL to PUT it to',
    examples: [
      {
        ...EXAMPLE_COVER,
        isCurrent: false,
        status: 'pending',
        uploadUrl: 'https://api.example.com/api/v1/files/upload?key=t7%2Ff61&expires=1773484200&sig=7d8e9f',
        resumable: EXAMPLE_RESUMABLE,
        method: 'PUT',
        headers: { 'content-type': 'image/jpeg', 'content-length': '482113' },
        fileKey: 't7/f61',
        expiresAt: '2026-03-14T10:30:00.000Z',
      },
    ],
  },
);

export const PublicCoverParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 256, description: 'The token of the publicUrl' }),
});
