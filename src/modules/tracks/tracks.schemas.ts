import { Type } from '@sinclair/typebox';
import { withOlderNames } from '../../shared/older-names.ts';
import {
  CalendarDate,
  CountedPage,
  CountQuery,
  HttpUrl,
  Id,
  LanguageTag,
  PageQuery,
  Timestamp,
  Uuid,
} from '../../shared/schemas.ts';
import {
  audioUploadFields,
  audioUploadOlderNames,
  EXAMPLE_RESUMABLE,
  UploadTicketFields,
} from '../files/files.schemas.ts';
import { BlockedBySchema } from './approvals/blocked-by.schemas.ts';
import { CurrentCover } from './covers/covers.schemas.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Text = (maxLength: number) => Type.String({ maxLength });

export const StatusId = Type.String({
  maxLength: 40,
  pattern: '^[a-z0-9_]{1,40}$',
  description: "A status id of the team's status configuration",
});

/** The examples of the tracks area: "Night Drive" by Luna Vale, track 101 of team 7. */
export const EXAMPLE_USER_ID = '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b';
export const EXAMPLE_TIME = '2026-03-14T09:30:00.000Z';
export const EXAMPLE_LATER = '2026-03-16T18:05:00.000Z';
export const EXAMPLE_URL_EXPIRES = '2026-03-16T19:05:00.000Z';
/** A signed link of the file store (the token shortened). */
export const exampleDownloadUrl = (name: string) =>
  `https://music.example.com/api/v1/files/download?token=eyJrIjoidGVhbXMvNy9${name}`;
export const EXAMPLE_UPLOAD = {
  uploadUrl: 'https://music.example.com/api/v1/files/upload?token=eyJrIjoicGVuZGluZy83LzNmMmM5YTFl',
  resumable: EXAMPLE_RESUMABLE,
  method: 'PUT',
  headers: { 'content-type': 'audio/wav' },
  expiresAt: '2026-03-14T10:30:00.000Z',
};
export const EXAMPLE_UPLOAD_KEY = 'pending/7/3f2c9a1e-5b7d-4c8e-9a0b-1c2d3e4f5a6b';

const REFERENCE_EXAMPLE = {
  id: 31,
  kind: 'reference',
  url: 'https://open.spotify.com/track/0VjIjW4GlUZAMYd2vXMi3b',
  platform: 'spotify',
  createdAt: EXAMPLE_TIME,
};
const INSPIRATION_EXAMPLE = {
  id: 32,
  kind: 'inspiration',
  url: 'https://www.youtube.com/watch?v=MV_3Dpw-BRY',
  platform: null,
  createdAt: EXAMPLE_TIME,
};

export const TrackLink = Type.Object(
  {
    id: Id,
    kind: Type.Union([Type.Literal('reference'), Type.Literal('inspiration')]),
    url: Type.String(),
    platform: Type.Union([Type.String(), Type.Null()], {
      description: 'Lower-cased platform name of a reference (e.g. spotify); null for inspirations',
    }),
    createdAt: Timestamp,
  },
  { title: 'TrackLink', examples: [REFERENCE_EXAMPLE, INSPIRATION_EXAMPLE] },
);

/** Track 101 as GET /tracks/{id} shows its own fields. */
export const TRACK_EXAMPLE = {
  id: 101,
  teamId: 7,
  teamIds: [7, 9],
  statusId: 'mixing',
  position: 2,
  title: 'Night Drive',
  artist: 'Luna Vale',
  genre: 'Synthwave',
  tags: ['night', 'retro'],
  bpm: 118,
  key: 'F# minor',
  language: 'en',
  isrc: 'USRC17607839',
  label: 'Neon Harbor Records',
  distributor: null,
  explicit: false,
  lyrics: 'City lights are calling me / down the empty boulevard',
  notes: 'Bring the bass up in the second chorus',
  releaseDate: '2026-06-05',
  coverFileId: 912,
  createdBy: EXAMPLE_USER_ID,
  deletedAt: null,
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_LATER,
};
const { lyrics: _lyrics, notes: _notes, ...TRACK_SUMMARY_EXAMPLE } = TRACK_EXAMPLE;

/** The current cover of track 101, as the track answers it. */
export const CURRENT_COVER_EXAMPLE = {
  id: 912,
  fileName: 'night-drive-cover.png',
  mediaType: 'image/png',
  url: exampleDownloadUrl('jb3Zlci5wbmc'),
  urlExpiresAt: EXAMPLE_URL_EXPIRES,
};

export const TRACK_DETAIL_EXAMPLE = {
  ...TRACK_EXAMPLE,
  cover: CURRENT_COVER_EXAMPLE,
  references: [REFERENCE_EXAMPLE],
  inspirations: [INSPIRATION_EXAMPLE],
};

export const Track = Type.Object(
  {
    id: Id,
    teamId: Id,
    teamIds: Type.Array(Id, {
      description: 'Teams that hold the track: the owning team first, then those it is shared with',
    }),
    statusId: Type.String(),
    position: Type.Integer({ description: 'Order within its status column' }),
    title: Type.String(),
    artist: Type.Union([Type.String(), Type.Null()]),
    genre: Type.Union([Type.String(), Type.Null()]),
    tags: Type.Array(Type.String()),
    bpm: Type.Union([Type.Number(), Type.Null()]),
    key: Type.Union([Type.String(), Type.Null()], { description: 'Musical key, e.g. "F# minor"' }),
    language: Type.Union([Type.String(), Type.Null()]),
    isrc: Type.Union([Type.String(), Type.Null()]),
    label: Type.Union([Type.String(), Type.Null()]),
    distributor: Type.Union([Type.String(), Type.Null()]),
    explicit: Type.Union([Type.Boolean(), Type.Null()]),
    lyrics: Type.Union([Type.String(), Type.Null()]),
    notes: Type.Union([Type.String(), Type.Null()]),
    releaseDate: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    coverFileId: Type.Union([Id, Type.Null()], {
      description:
        'The current cover (see /tracks/{id}/covers); single-track answers add `cover` with its URL',
    }),
    createdBy: Type.Union([Uuid, Type.Null()]),
    deletedAt: Type.Union([Timestamp, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Track', examples: [TRACK_EXAMPLE] },
);

export const TrackDetail = Type.Composite(
  [
    Track,
    Type.Object({
      cover: Type.Union([CurrentCover, Type.Null()]),
      references: Type.Array(TrackLink),
      inspirations: Type.Array(TrackLink),
    }),
  ],
  { title: 'TrackDetail', examples: [TRACK_DETAIL_EXAMPLE] },
);

export const TrackSummary = Type.Composite(
  [Type.Omit(Track, ['lyrics', 'notes']), Type.Object({ blockedBy: BlockedBySchema })],
  {
    title: 'TrackSummary',
    description:
      'A track as lists (the board) show it: its lyrics and notes are on the track itself (GET /tracks/{id}); ' +
      '`blockedBy` says what keeps it from the next status',
    examples: [{ ...TRACK_SUMMARY_EXAMPLE, blockedBy: { status: 'mastering', required: 2, have: 1 } }],
  },
);

export const TrackPage = CountedPage(TrackSummary);

export const TrackListQuery = Type.Object({
  teamId: Type.Optional(Id),
  status: Type.Optional(StatusId),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 120,
      description: 'Case-insensitive text in title, artist or genre',
    }),
  ),
  sort: Type.Optional(
    Type.Union([Type.Literal('updated'), Type.Literal('title')], {
      default: 'updated',
      description: 'updated: most recently changed first; title: alphabetical',
    }),
  ),
  ...PageQuery,
  ...CountQuery,
});

export const TrackPatchBody = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })),
    artist: Type.Optional(Nullable(Text(200))),
    genre: Type.Optional(Nullable(Text(100))),
    tags: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 50, uniqueItems: true }),
    ),
    bpm: Type.Optional(
      Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 999.99, multipleOf: 0.01 }), Type.Null()]),
    ),
    key: Type.Optional(Nullable(Text(20))),
    language: Type.Optional(Nullable(LanguageTag)),
    isrc: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 15,
          pattern: '^[A-Z]{2}-?[A-Z0-9]{3}-?[0-9]{2}-?[0-9]{5}$',
          description: 'ISRC, e.g. USRC17607839',
        }),
      ),
    ),
    label: Type.Optional(Nullable(Text(200))),
    distributor: Type.Optional(Nullable(Text(200))),
    explicit: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    lyrics: Type.Optional(Nullable(Text(50_000))),
    notes: Type.Optional(Nullable(Text(20_000))),
    releaseDate: Type.Optional(Nullable(CalendarDate)),
  },
  {
    title: 'TrackUpdate',
    minProperties: 1,
    description: 'Only the fields given change; null clears a field',
    examples: [{ title: 'Night Drive (Extended)', bpm: 118, tags: ['night', 'retro'], distributor: null }],
  },
);

export const CreateTrackBody = withOlderNames(
  Type.Object(
    {
      title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
      teamId: Id,
      ...audioUploadFields,
    },
    {
      title: 'TrackCreate',
      examples: [
        {
          title: 'Night Drive',
          teamId: 7,
          audioFileName: 'night-drive-v1.wav',
          audioFileSize: 41_203_712,
        },
      ],
    },
  ),
  { team_id: 'teamId', ...audioUploadOlderNames },
);

export const DeleteTrackQuery = Type.Object({
  mode: Type.Optional(
    Type.Union([Type.Literal('soft'), Type.Literal('hard')], {
      default: 'soft',
      description: 'soft: restorable until purged; hard: rows and files removed at once',
    }),
  ),
});

export const StatusBody = Type.Object(
  { status: StatusId },
  { title: 'TrackStatusChange', examples: [{ status: 'mixing' }] },
);

export const ReorderBody = withOlderNames(
  Type.Object(
    {
      statusId: StatusId,
      trackOrders: Type.Array(Type.Object({ trackId: Id, order: Type.Integer({ minimum: 0 }) }), {
        minItems: 1,
        maxItems: 1000,
        description: 'Every live track of the status, each once, with its new order',
      }),
    },
    {
      title: 'TrackReorder',
      examples: [
        {
          statusId: 'mixing',
          trackOrders: [
            { trackId: 101, order: 0 },
            { trackId: 104, order: 1 },
            { trackId: 102, order: 2 },
          ],
        },
      ],
    },
  ),
  { status_id: 'statusId', track_orders: 'trackOrders' },
);

export const TrackReorderResult = Type.Object(
  {
    statusId: Type.String(),
    trackIds: Type.Array(Type.Integer(), { description: 'The tracks of the status in their new order' }),
  },
  { title: 'TrackReorderResult', examples: [{ statusId: 'mixing', trackIds: [101, 104, 102] }] },
);

export const ShareBody = Type.Object(
  {
    teamId: Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description: 'The team to share the track with: one the caller belongs to (a key: its own team)',
    }),
  },
  { title: 'TrackShare', examples: [{ teamId: 9 }] },
);

export const ShareResult = Type.Object(
  {
    trackId: Id,
    teamIds: Type.Array(Id, { description: 'Teams that hold the track: the owning team first' }),
  },
  { title: 'TrackShareResult', examples: [{ trackId: 101, teamIds: [7, 9] }] },
);

export const ShareParams = Type.Object({ id: Id, teamId: Id });

export const ReferenceBody = Type.Object(
  {
    url: HttpUrl,
    platform: Type.String({ minLength: 1, maxLength: 50, description: 'e.g. spotify, youtube, soundcloud' }),
  },
  {
    title: 'TrackReferenceCreate',
    examples: [{ url: 'https://open.spotify.com/track/0VjIjW4GlUZAMYd2vXMi3b', platform: 'Spotify' }],
  },
);

export const InspirationBody = Type.Object(
  { url: HttpUrl },
  { title: 'TrackInspirationCreate', examples: [{ url: 'https://www.youtube.com/watch?v=MV_3Dpw-BRY' }] },
);

export const CreatedTrack = Type.Composite(
  [
    TrackDetail,
    Type.Object({
      versionId: Id,
      upload: Type.Object(
        UploadTicketFields('fileKey', 'The key of the upload of the first version’s audio'),
        { description: 'PUT the audio of the first version here' },
      ),
    }),
  ],
  {
    title: 'CreatedTrack',
    description: 'The new track, its first version and the upload URL of that version’s audio',
    examples: [
      {
        ...TRACK_EXAMPLE,
        teamIds: [7],
        statusId: 'idea',
        position: 0,
        artist: null,
        genre: null,
        tags: [],
        bpm: null,
        key: null,
        language: null,
        isrc: null,
        label: null,
        explicit: null,
        lyrics: null,
        notes: null,
        releaseDate: null,
        coverFileId: null,
        updatedAt: EXAMPLE_TIME,
        cover: null,
        references: [],
        inspirations: [],
        versionId: 499,
        upload: { ...EXAMPLE_UPLOAD, fileKey: EXAMPLE_UPLOAD_KEY },
      },
    ],
  },
);
