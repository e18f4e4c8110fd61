import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp } from '../../shared/schemas.ts';
import { AudioFacts, FileKindSchema, Peaks, UploadTicketFields } from '../files/files.schemas.ts';

export const MediaParams = Type.Object({ id: Id, mediaId: Id });
export const MediaListQuery = Type.Object(PageQuery);
export const EmptyBody = Type.Object({}, { description: 'No fields; the body may be left out entirely' });

const FileName = Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' });

export const CreateMediaBody = Type.Object({
  fileName: FileName,
  fileSize: Type.Integer({
    minimum: 0,
    description: 'Exact size in bytes; the upload URL accepts this size only',
  }),
  mediaType: Type.String({
    minLength: 1,
    maxLength: 255,
    description:
      'The media (MIME) type, e.g. `audio/wav`, `image/png`, `application/pdf`; or just the kind ' +
      '(`audio`, `image`, `document`), the type then being told from the file name',
  }),
});

const mediaFields = {
  id: Id,
  teamId: Id,
  status: Type.Union([Type.Literal('pending'), Type.Literal('ready')], {
    description: 'pending: waiting for the upload to be registered (POST .../added); ready: stored',
  }),
  fileName: Type.String(),
  fileSize: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  mediaType: Type.String({ description: 'The media (MIME) type' }),
  kind: FileKindSchema,
  createdAt: Timestamp,
};

const readyFields = {
  url: Type.Optional(Type.String({ description: 'Signed URL to show or play the file in place' })),
  downloadUrl: Type.Optional(Type.String({ description: 'Signed URL to save the file under its name' })),
  urlExpiresAt: Type.Optional(Timestamp),
  audio: Type.Optional(Type.Union([AudioFacts, Type.Null()])),
  peaks: Type.Optional(Peaks),
};

/** A team media file; `peaks` carries the waveform itself only on the single-media answers. */
export const TeamMedia = Type.Object({ ...mediaFields, ...readyFields });
export const TeamMediaPage = Page(TeamMedia);

/** The new (pending) media with the URL to upload its bytes to. */
export const TeamMediaUpload = Type.Object({
  ...mediaFields,
  ...UploadTicketFields('fileKey', 'The key of the upload (registration uses the media id)'),
});
