import { Type } from '@sinclair/typebox';
import { withOlderNames } from '../../../shared/older-names.ts';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import {
  AudioFacts,
  audioUploadFields,
  audioUploadOlderNames,
  Peaks,
  RegisterUploadBody,
  UploadTicketFields,
} from '../../files/files.schemas.ts';
import { VersionAnalysis } from '../music-tools/music-tools.schemas.ts';

export const VersionParams = Type.Object({ id: Id, versionId: Id });

export const ReviewStateSchema = Type.Union(
  [
    Type.Literal('none'),
    Type.Literal('pending'),
    Type.Literal('approved'),
    Type.Literal('changes_requested'),
  ],
  { description: 'State of the latest review that was not withdrawn' },
);

export const Version = Type.Object({
  id: Id,
  trackId: Id,
  position: Type.Integer({ description: 'Order among the track’s versions' }),
  name: Type.String(),
  notes: Type.Union([Type.String(), Type.Null()]),
  isFinal: Type.Boolean({ description: 'At most one final version per track' }),
  audioFileName: Type.String(),
  durationSeconds: Type.Union([Type.Number(), Type.Null()], {
    description: 'Known once the audio is analysed',
  }),
  reviewState: ReviewStateSchema,
  createdBy: Type.Union([Uuid, Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const ReviewerView = Type.Object({
  userId: Uuid,
  listenedAt: Type.Union([Timestamp, Type.Null()]),
  decision: Type.Union([Type.Literal('approved'), Type.Literal('changes_requested'), Type.Null()]),
  decidedAt: Type.Union([Timestamp, Type.Null()]),
});

export const Review = Type.Object({
  id: Id,
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('withdrawn'),
    Type.Literal('approved'),
    Type.Literal('changes_requested'),
  ]),
  requestedBy: Type.Union([Uuid, Type.Null()]),
  reviewers: Type.Array(ReviewerView),
  createdAt: Timestamp,
  closedAt: Type.Union([Timestamp, Type.Null()]),
});

/** A registered audio file with its facts, waveform state and signed links (version audio, stems, ...). */
export const audioFileFields = {
  fileId: Id,
  fileName: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
  facts: Type.Union([AudioFacts, Type.Null()], { description: 'null when the file could not be read' }),
  peaks: Peaks,
  url: Type.String({ description: 'Signed URL to stream the audio (inline)' }),
  downloadUrl: Type.String({ description: 'Signed URL to download the audio under its name' }),
  urlExpiresAt: Timestamp,
};

export const VersionAudio = Type.Object(
  {
    ...audioFileFields,
    url: Type.String({
      description:
        'Signed URL to stream the audio (inline). Fetching it from its first byte records a play of the ' +
        'version by the caller that got the URL (see GET .../plays); range requests while seeking do not.',
    }),
  },
  { description: 'The registered audio of the version' },
);

export const VersionFile = Type.Object(
  { ...audioFileFields, createdAt: Timestamp },
  {
    description:
      'An additional audio file of the version (an alternate bounce, an instrumental, ...); `peaks` has the ' +
      'waveform state without the data',
  },
);

export const VersionDetail = Type.Composite([
  Version,
  Type.Object({
    audio: Type.Union([VersionAudio, Type.Null()], { description: 'null until the audio is registered' }),
    files: Type.Array(VersionFile, {
      description:
        'Additional audio files of the version, oldest first (POST .../files/create, then POST .../files)',
    }),
    review: Type.Union([Review, Type.Null()], { description: 'The latest review request, if any' }),
    counts: Type.Object({
      comments: Type.Integer(),
      todos: Type.Integer(),
      openTodos: Type.Integer(),
      stems: Type.Integer(),
      plays: Type.Integer(),
    }),
    analysis: Type.Union([VersionAnalysis, Type.Null()], {
      description: 'Loudness, tempo and key from the latest music-tools `analyze` run; null before one',
    }),
  }),
]);

export const VersionPage = Page(Version);
export const VersionListQuery = Type.Object(PageQuery);

export const VersionMetadataBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })),
    notes: Type.Optional(Type.Union([Type.String({ maxLength: 20_000 }), Type.Null()])),
  },
  { minProperties: 1 },
);

export const VersionReorderBody = Type.Object({
  versions: Type.Array(Type.Object({ versionId: Id, order: Type.Integer({ minimum: 0 }) }), {
    minItems: 1,
    maxItems: 1000,
    description: 'Every version of the track, each once, with its new order',
  }),
});

export const VersionOrder = Type.Object({ trackId: Id, versionIds: Type.Array(Id) });

export const CreateVersionBody = withOlderNames(Type.Object(audioUploadFields), audioUploadOlderNames);

export const CreatedVersion = Type.Composite([
  VersionDetail,
  Type.Object({
    upload: Type.Object(
      UploadTicketFields(
        'fileKey',
        'Send it to PUT /api/v1/tracks/{id}/versions/{versionId}/audio once the bytes are uploaded',
      ),
    ),
  }),
]);

export const RegisterAudioBody = RegisterUploadBody;
