import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery } from '../../../shared/schemas.ts';
import {
  LibraryFileFields,
  StoredFileFields,
  UploadFileName,
  UploadFileSize,
  UploadMediaType,
  UploadTicketFields,
} from '../../files/files.schemas.ts';

export const TrackMediaParams = Type.Object({ id: Id, mediaId: Id });
export const TrackMediaListQuery = Type.Object(PageQuery);

export const CreateTrackMediaBody = Type.Object({
  fileName: UploadFileName,
  fileSize: Type.Optional(UploadFileSize),
  mediaType: Type.Optional(UploadMediaType),
});

const mediaFields = { ...LibraryFileFields, trackId: Id };

/** A file of a track beside its versions (video, artwork, documents, audio). */
export const TrackMedia = Type.Object({ ...mediaFields, ...StoredFileFields });
export const TrackMediaPage = Page(TrackMedia);

/** The new (pending) media with the URL to upload its bytes to. */
export const TrackMediaUpload = Type.Object({
  ...mediaFields,
  ...UploadTicketFields('fileKey', 'The key of the upload (registration uses the media id)'),
});
