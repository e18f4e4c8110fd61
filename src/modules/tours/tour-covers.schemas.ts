import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp } from '../../shared/schemas.ts';
import { LibraryFileFields, UploadTicketFields } from '../files/files.schemas.ts';

export const CoverParams = Type.Object({ id: Id, coverId: Id });
export const CoverListQuery = Type.Object(PageQuery);

export const PublicFlagBody = Type.Object({
  isPublic: Type.Boolean({
    description:
      'true: anyone may fetch the image at publicUrl, without a token; false: that URL answers 404 at once',
  }),
});

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

/** A registered cover of a tour. */
export const TourCover = Type.Object({
  ...coverFields,
  status: Type.Literal('ready'),
  url: Type.String({ description: 'Signed URL to show the image' }),
  downloadUrl: Type.String({ description: 'Signed URL to save the image under its name' }),
  urlExpiresAt: Timestamp,
});
export const TourCoverPage = Page(TourCover);

/** A new cover waiting for its image, with the URL to upload it to. */
export const TourCoverUpload = Type.Object({
  ...coverFields,
  status: Type.Literal('pending', { description: 'Waiting for POST .../covers/{coverId}/added' }),
  ...UploadTicketFields('fileKey', 'The key of the upload (registration uses the cover id)'),
});

export const PublicCoverParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 256, description: 'The token of the publicUrl' }),
});
