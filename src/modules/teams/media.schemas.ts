import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery } from '../../shared/schemas.ts';
import {
  LibraryFileFields,
  StoredFileFields,
  UploadFileName,
  UploadFileSize,
  UploadMediaType,
  UploadTicketFields,
} from '../files/files.schemas.ts';

export const MediaParams = Type.Object({ id: Id, mediaId: Id });
export const MediaListQuery = Type.Object(PageQuery);
export const EmptyBody = Type.Object({}, { description: 'No fields; the body may be left out entirely' });

export const CreateMediaBody = Type.Object({
  fileName: UploadFileName,
  fileSize: UploadFileSize,
  mediaType: UploadMediaType,
});

const mediaFields = { ...LibraryFileFields, teamId: Id };

/** A team media file; `peaks` carries the waveform itself only on the single-media answers. */
export const TeamMedia = Type.Object({ ...mediaFields, ...StoredFileFields });
export const TeamMediaPage = Page(TeamMedia);

/** The new (pending) media with the URL to upload its bytes to. */
export const TeamMediaUpload = Type.Object({
  ...mediaFields,
  ...UploadTicketFields('fileKey', 'The key of the upload (registration uses the media id)'),
});
