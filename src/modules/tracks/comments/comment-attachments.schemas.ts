import { Type } from '@sinclair/typebox';
import { Id } from '../../../shared/schemas.ts';
import {
  LibraryFileFields,
  UploadFileName,
  UploadFileSize,
  UploadMediaType,
  UploadTicketFields,
} from '../../files/files.schemas.ts';
import { EXAMPLE_TIME, EXAMPLE_UPLOAD } from '../tracks.schemas.ts';
import { COMMENT_EXAMPLE, CreateCommentBody } from './comments.schemas.ts';

const ATTACHMENT_KEY = 'pending/7/5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';

export const CommentUploadBody = Type.Object(
  {
    fileName: Type.Optional(UploadFileName),
    fileSize: Type.Optional(UploadFileSize),
    mediaType: Type.Optional(UploadMediaType),
  },
  {
    title: 'CommentAttachmentUploadCreate',
    description:
      'Every field is optional and the body may be left out. Without fileName the file is named ' +
      '`attachment.<extension of mediaType>`; with neither, it is a PNG image named `attachment.png`.',
    examples: [{ fileName: 'bridge-notes.png', fileSize: 182_344, mediaType: 'image/png' }, {}],
  },
);

const { id, status, fileName, fileSize, mediaType, kind, createdAt } = LibraryFileFields;

/** An upload for a comment still to be written. */
export const CommentUpload = Type.Object(
  {
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
  },
  {
    title: 'CommentAttachmentUpload',
    description: 'A pending attachment upload of the version, with the URL to PUT its bytes to',
    examples: [
      {
        id: 955,
        versionId: 502,
        status: 'pending',
        fileName: 'bridge-notes.png',
        fileSize: 182_344,
        mediaType: 'image/png',
        kind: 'image',
        createdAt: EXAMPLE_TIME,
        ...EXAMPLE_UPLOAD,
        headers: { 'content-type': 'image/png' },
        fileKey: ATTACHMENT_KEY,
      },
    ],
  },
);

export const CreateCommentWithAttachmentsBody = Type.Object(
  {
    ...CreateCommentBody.properties,
    attachments: Type.Array(Type.String({ minLength: 1, maxLength: 512 }), {
      minItems: 1,
      maxItems: 10,
      uniqueItems: true,
      description: 'fileKeys answered by POST .../comments/upload for this version, their bytes PUT',
    }),
  },
  {
    title: 'VersionCommentWithAttachmentsCreate',
    examples: [{ comment: COMMENT_EXAMPLE.comment, atSeconds: 92.5, attachments: [ATTACHMENT_KEY] }],
  },
);
