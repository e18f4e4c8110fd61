import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp } from '../../../shared/schemas.ts';
import { LibraryFileFields, UploadTicketFields } from '../../files/files.schemas.ts';

export const CoverParams = Type.Object({ id: Id, coverId: Id });
export const CoverListQuery = Type.Object(PageQuery);

export { CreateCoverBody } from '../../files/files.schemas.ts';

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
export const Cover = Type.Object({
  ...coverFields,
  status: Type.Literal('ready'),
  url: Type.String({ description: 'Signed URL to show the image' }),
  downloadUrl: Type.String({ description: 'Signed URL to save the image under its name' }),
  urlExpiresAt: Timestamp,
});
export const CoverPage = Page(Cover);

/** A new cover waiting for its image, with the URL to upload it to. */
export const CoverUpload = Type.Object({
  ...coverFields,
  status: Type.Literal('pending', { description: 'Waiting for POST .../covers/{coverId}/added' }),
  ...UploadTicketFields('fileKey', 'The key of the upload (registration uses the cover id)'),
});

/** The cover a track shows, as the track answers it. */
export const CurrentCover = Type.Object(
  {
    id: Id,
    fileName: Type.String(),
    mediaType: Type.String(),
    url: Type.String({ description: 'Signed URL to show the image' }),
    urlExpiresAt: Timestamp,
  },
  { description: 'The current cover with a signed URL; null when the track has none' },
);
