import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp } from '../../../shared/schemas.ts';
import {
  LibraryFileFields,
  StoredFileFields,
  UploadFileName,
  UploadFileSize,
  UploadTicketFields,
} from '../../files/files.schemas.ts';
import { SessionParams } from '../sessions.schemas.ts';

export const SessionFileParams = Type.Object({ ...SessionParams.properties, mediaId: Id });
export const SessionFileListQuery = Type.Object(PageQuery);

export const CreateSessionFileBody = Type.Object(
  {
    fileName: UploadFileName,
    fileSize: UploadFileSize,
    mediaType: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description:
          'The media (MIME) type, e.g. `audio/wav`, `application/pdf`, or just the kind (`audio`, `image`, ' +
          '`video`, `document`); told from the file name when left out (extension)',
      }),
    ),
  },
  {
    title: 'SessionFileCreate',
  },
);

const fields = { ...LibraryFileFields, sessionId: Id };

/** A file shared in a session; `peaks` carries the waveform itself only on the single-file answer. */
export const SessionFile = Type.Object(
  { ...fields, ...StoredFileFields },
  {
    title: 'SessionFile',
    description:
      'A file shared in a session. Pending until its upload is confirmed (no links then); a registered ' +
      'audio file carries its facts and waveform state',
  },
);
export const SessionFilePage = Page(SessionFile);

export const SessionFileUpload = Type.Object(
  {
    ...fields,
    ...UploadTicketFields('fileKey', 'The key of the upload (confirming uses the media id)'),
  },
  {
    title: 'SessionFileUpload',
    description: 'The pending file and where to PUT its bytes',
  },
);

export const SessionFileUrl = Type.Object(
  {
    url: Type.String({ description: 'Signed URL to show or play the file in place' }),
    downloadUrl: Type.String({ description: 'Signed URL to save the file under its name' }),
    urlExpiresAt: Timestamp,
  },
  { title: 'SessionFileLinks' },
);
