import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp } from '../../../shared/schemas.ts';
import {
  EXAMPLE_RESUMABLE,
  LibraryFileFields,
  StoredFileFields,
  UploadFileName,
  UploadFileSize,
  UploadTicketFields,
} from '../../files/files.schemas.ts';
import { EXAMPLE, EXAMPLE_AUDIO, exampleSignedUrl, SessionParams } from '../sessions.schemas.ts';

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
    examples: [{ fileName: 'night-drive-vocal-take3.wav', fileSize: 69562368, mediaType: 'audio/wav' }],
  },
);

const fields = { ...LibraryFileFields, sessionId: Id };

const FILE_EXAMPLE = {
  id: 512,
  status: 'ready',
  fileName: 'night-drive-vocal-take3.wav',
  fileSize: 69562368,
  mediaType: 'audio/wav',
  kind: 'audio',
  createdAt: EXAMPLE.updatedAt,
  sessionId: EXAMPLE.sessionId,
} as const;
const FILE_LINKS_EXAMPLE = {
  url: exampleSignedUrl('download', 'eyJtIjoiR0VUIiwiayI6InRlYW1zLzcvYXVkaW8ifQ.inline-Zk3'),
  downloadUrl: exampleSignedUrl('download', 'eyJtIjoiR0VUIiwiayI6InRlYW1zLzcvYXVkaW8ifQ.attach-Qp8'),
  urlExpiresAt: '2026-03-14T10:30:00.000Z',
};

/** A file shared in a session; `peaks` carries the waveform itself only on the single-file answer. */
export const SessionFile = Type.Object(
  { ...fields, ...StoredFileFields },
  {
    title: 'SessionFile',
    description:
      'A file shared in a session. Pending until its upload is confirmed (no links then); a registered ' +
      'audio file carries its facts and waveform state',
    examples: [
      { ...FILE_EXAMPLE, ...FILE_LINKS_EXAMPLE, audio: EXAMPLE_AUDIO.facts, peaks: EXAMPLE_AUDIO.peaks },
    ],
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
    examples: [
      {
        ...FILE_EXAMPLE,
        status: 'pending',
        uploadUrl: exampleSignedUrl('upload', 'eyJtIjoiUFVUIiwiayI6InRlYW1zLzcvYXVkaW8ifQ.Hw2x'),
        resumable: EXAMPLE_RESUMABLE,
        method: 'PUT',
        headers: { 'content-type': 'audio/wav' },
        fileKey: 'teams/7/audio/0193a5f2-9f41-7e6d-8c43-6f5a7b8c9d0e.wav',
        expiresAt: '2026-03-02T17:45:00.000Z',
      },
    ],
  },
);

export const SessionFileUrl = Type.Object(
  {
    url: Type.String({ description: 'Signed URL to show or play the file in place' }),
    downloadUrl: Type.String({ description: 'Signed URL to save the file under its name' }),
    urlExpiresAt: Timestamp,
  },
  { title: 'SessionFileLinks', examples: [FILE_LINKS_EXAMPLE] },
);
