import { Type } from '@sinclair/typebox';
import { Id } from '../../../shared/schemas.ts';
import {
  LibraryFileFields,
  UploadFileName,
  UploadFileSize,
  UploadMediaType,
  UploadTicketFields,
} from '../../files/files.schemas.ts';
import { CreateCommentBody } from './comments.schemas.ts';

export const CommentUploadBody = Type.Object(
  {
    fileName: Type.Optional(UploadFileName),
    fileSize: Type.Optional(UploadFileSize),
    mediaType: Type.Optional(UploadMediaType),
  },
  {
    description:
      'Every field is optional and the body may be left out. Without fileName the file is named ' +
      '`attachment.<extension of mediaType>`; with neither, it is a PNG image named `attachment.png`.',
  },
);

const { id, status, fileName, fileSize, mediaType, kind, createdAt } = LibraryFileFields;

/** An upload for a comment still to be written. */
export const CommentUpload = Type.Object({
  id,
  versionId: Id,
  status,
  fileName,
  fileSize,
  mediaType,
  kind,
  createdAt,
  ...UploadTicketFields(
    'fileKey',
    'Name it in `attachments` of POST .../comments/with-attachments once the bytes are PUT',
  ),
});

export const CreateCommentWithAttachmentsBody = Type.Object({
  ...CreateCommentBody.properties,
  attachments: Type.Array(Type.String({ minLength: 1, maxLength: 512 }), {
    minItems: 1,
    maxItems: 10,
    uniqueItems: true,
    description: 'fileKeys answered by POST .../comments/upload for this version, their bytes PUT',
  }),
});
