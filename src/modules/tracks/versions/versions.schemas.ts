import { Type } from '@sinclair/typebox';
import { withOlderNames } from '../../../shared/older-names.ts';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import {
  AUDIO_FACTS_EXAMPLE,
  AudioFacts,
  audioUploadFields,
  audioUploadOlderNames,
  PEAKS_EXAMPLE,
  Peaks,
  RegisterUploadBody,
  UploadTicketFields,
} from '../../files/files.schemas.ts';
import { VERSION_ANALYSIS_EXAMPLE, VersionAnalysis } from '../music-tools/music-tools.schemas.ts';
import {
  EXAMPLE_LATER,
  EXAMPLE_TIME,
  EXAMPLE_UPLOAD,
  EXAMPLE_UPLOAD_KEY,
  EXAMPLE_URL_EXPIRES,
  EXAMPLE_USER_ID,
  exampleDownloadUrl,
} from '../tracks.schemas.ts';

/** A reviewer of the examples: another member of team 7. */
export const EXAMPLE_REVIEWER_ID = '0193a5f2-7d2f-7c4b-8e21-4d3e5f607182';

/** Version 2 of track 101, as lists show it. */
export const VERSION_EXAMPLE = {
  id: 502,
  trackId: 101,
  position: 1,
  name: 'Mix 2',
  notes: 'Louder vocals, tighter low end',
  isFinal: false,
  audioFileName: 'night-drive-v2.wav',
  durationSeconds: 214.6,
  reviewState: 'pending',
  carried: {
    fromVersionId: 499,
    comments: 7,
    todos: 2,
    offsetSeconds: 3.004,
    confidence: 0.97,
    mapped: true,
    at: EXAMPLE_LATER,
  },
  createdBy: EXAMPLE_USER_ID,
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_LATER,
};

export const REVIEW_EXAMPLE = {
  id: 44,
  status: 'pending',
  requestedBy: EXAMPLE_USER_ID,
  reviewers: [{ userId: EXAMPLE_REVIEWER_ID, listenedAt: EXAMPLE_LATER, decision: null, decidedAt: null }],
  createdAt: EXAMPLE_LATER,
  closedAt: null,
};

/** The fields of an audio file of the tracks area in the examples (version 502's audio). */
export const AUDIO_FILE_EXAMPLE = {
  fileId: 733,
  fileName: 'night-drive-v2.wav',
  contentType: 'audio/wav',
  size: 41_203_712,
  facts: AUDIO_FACTS_EXAMPLE,
  peaks: PEAKS_EXAMPLE,
  url: exampleDownloadUrl('hdWRpby9uaWdodC1kcml2ZS12Mi53YXY'),
  downloadUrl: exampleDownloadUrl('hdWRpby9uaWdodC1kcml2ZS12Mi53YXYiLCJkIjoiYSJ9'),
  urlExpiresAt: EXAMPLE_URL_EXPIRES,
};

export const VERSION_FILE_EXAMPLE = {
  ...AUDIO_FILE_EXAMPLE,
  fileId: 741,
  fileName: 'night-drive-v2-instrumental.wav',
  size: 40_960_512,
  peaks: { status: 'ready', bucketCount: 1200, durationSeconds: 214.6 },
  url: exampleDownloadUrl('hdWRpby9pbnN0cnVtZW50YWwud2F2'),
  downloadUrl: exampleDownloadUrl('hdWRpby9pbnN0cnVtZW50YWwud2F2IiwiZCI6ImEifQ'),
  createdAt: EXAMPLE_LATER,
};

export const VERSION_DETAIL_EXAMPLE = {
  ...VERSION_EXAMPLE,
  audio: AUDIO_FILE_EXAMPLE,
  files: [VERSION_FILE_EXAMPLE],
  review: REVIEW_EXAMPLE,
  counts: { comments: 6, todos: 3, openTodos: 1, stems: 4, plays: 12 },
  analysis: VERSION_ANALYSIS_EXAMPLE,
};

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

/** How the open notes of the version before came over to this one. */
export const NotesCarried = Type.Object(
  {
    fromVersionId: Id,
    comments: Type.Integer({ minimum: 0, description: 'Comments copied, replies included' }),
    todos: Type.Integer({ minimum: 0, description: 'Open to-dos copied' }),
    offsetSeconds: Type.Union([Type.Number(), Type.Null()], {
      description:
        'Where the old audio lies in the new one: a moment t of the old is at t + offsetSeconds; null when ' +
        'either waveform was missing',
    }),
    confidence: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
      description: 'How well the two waveforms matched at that offset',
    }),
    mapped: Type.Boolean({
      description:
        'Whether the times were moved (confidence at least 0.6); false: the copies kept their times',
    }),
    at: Type.String({ format: 'date-time', description: 'When the notes were carried' }),
  },
  { title: 'VersionNotesCarried' },
);

export const Version = Type.Object(
  {
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
    carried: Type.Union([NotesCarried, Type.Null()], {
      description:
        'Set once the unresolved timed comments (with replies) and open to-dos of the version before were ' +
        'copied here, in the background after the audio and both waveforms were ready; null before, and ' +
        'when there was no earlier version with audio',
    }),
    createdBy: Type.Union([Uuid, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Version', examples: [VERSION_EXAMPLE] },
);

export const ReviewerView = Type.Object(
  {
    userId: Uuid,
    listenedAt: Type.Union([Timestamp, Type.Null()], { description: 'When the reviewer marked it listened' }),
    decision: Type.Union([Type.Literal('approved'), Type.Literal('changes_requested'), Type.Null()]),
    decidedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'VersionReviewer', examples: [REVIEW_EXAMPLE.reviewers[0]] },
);

export const Review = Type.Object(
  {
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
  },
  {
    title: 'VersionReview',
    description:
      'A review request: pending until a reviewer asks for changes or all approve, or it is withdrawn',
    examples: [REVIEW_EXAMPLE],
  },
);

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
  {
    title: 'VersionAudio',
    description: 'The registered audio of the version',
    examples: [AUDIO_FILE_EXAMPLE],
  },
);

export const VersionFile = Type.Object(
  { ...audioFileFields, createdAt: Timestamp },
  {
    description:
      'An additional audio file of the version (an alternate bounce, an instrumental, ...); `peaks` has the ' +
      'waveform state without the data',
    title: 'VersionFile',
    examples: [VERSION_FILE_EXAMPLE],
  },
);

export const VersionDetail = Type.Composite(
  [
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
  ],
  {
    title: 'VersionDetail',
    description: 'A version with its audio, additional files, latest review, counts and analysis',
    examples: [VERSION_DETAIL_EXAMPLE],
  },
);

export const VersionPage = Page(Version);
export const VersionListQuery = Type.Object(PageQuery);

export const VersionMetadataBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })),
    notes: Type.Optional(Type.Union([Type.String({ maxLength: 20_000 }), Type.Null()])),
  },
  {
    title: 'VersionUpdate',
    minProperties: 1,
    description: 'Only the fields given change; null clears the notes',
    examples: [{ name: 'Mix 2', notes: 'Louder vocals, tighter low end' }],
  },
);

export const VersionReorderBody = Type.Object(
  {
    versions: Type.Array(Type.Object({ versionId: Id, order: Type.Integer({ minimum: 0 }) }), {
      minItems: 1,
      maxItems: 1000,
      description: 'Every version of the track, each once, with its new order',
    }),
  },
  {
    title: 'VersionReorder',
    examples: [
      {
        versions: [
          { versionId: 502, order: 0 },
          { versionId: 499, order: 1 },
        ],
      },
    ],
  },
);

export const VersionOrder = Type.Object(
  { trackId: Id, versionIds: Type.Array(Id, { description: 'The versions in their new order' }) },
  { title: 'VersionReorderResult', examples: [{ trackId: 101, versionIds: [502, 499] }] },
);

export const CreateVersionBody = withOlderNames(
  Type.Object(audioUploadFields, {
    title: 'VersionCreate',
    examples: [{ audioFileName: 'night-drive-v2.wav', audioFileSize: 41_203_712 }],
  }),
  audioUploadOlderNames,
);

export const CreatedVersion = Type.Composite(
  [
    VersionDetail,
    Type.Object({
      upload: Type.Object(
        UploadTicketFields(
          'fileKey',
          'Send it to PUT /api/v1/tracks/{id}/versions/{versionId}/audio once the bytes are uploaded',
        ),
      ),
    }),
  ],
  {
    title: 'CreatedVersion',
    description: 'The new version (no audio yet) and the upload URL of its audio',
    examples: [
      {
        ...VERSION_EXAMPLE,
        notes: null,
        reviewState: 'none',
        durationSeconds: null,
        updatedAt: EXAMPLE_TIME,
        name: 'Version 2',
        carried: null,
        audio: null,
        files: [],
        review: null,
        counts: { comments: 0, todos: 0, openTodos: 0, stems: 0, plays: 0 },
        analysis: null,
        upload: { ...EXAMPLE_UPLOAD, fileKey: EXAMPLE_UPLOAD_KEY },
      },
    ],
  },
);

export const RegisterAudioBody = Type.Object(RegisterUploadBody.properties, {
  title: 'VersionAudioRegister',
  examples: [{ fileKey: EXAMPLE_UPLOAD_KEY }],
});
