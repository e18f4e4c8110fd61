import { Type } from '@sinclair/typebox';
import {
  CalendarDate,
  HttpUrl,
  Id,
  LanguageTag,
  Page,
  PageQuery,
  Timestamp,
  Uuid,
} from '../../shared/schemas.ts';
import { audioUploadFields, UploadTicketFields } from '../files/files.schemas.ts';
import { CurrentCover } from './covers/covers.schemas.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Text = (maxLength: number) => Type.String({ maxLength });

export const StatusId = Type.String({
  maxLength: 40,
  pattern: '^[a-z0-9_]{1,40}$',
  description: "A status id of the team's status configuration",
});

export const TrackLink = Type.Object({
  id: Id,
  kind: Type.Union([Type.Literal('reference'), Type.Literal('inspiration')]),
  url: Type.String(),
  platform: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
});

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
  { title: 'Track' },
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
  { title: 'TrackDetail' },
);

export const TrackSummary = Type.Omit(Track, ['lyrics', 'notes'], {
  title: 'TrackSummary',
  description: 'A track as lists show it: its lyrics and notes are on the track itself (GET /tracks/{id})',
});

export const TrackPage = Page(TrackSummary);

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
  { minProperties: 1, description: 'Only the fields given change; null clears a field' },
);

export const CreateTrackBody = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  team_id: Id,
  ...audioUploadFields,
});

export const DeleteTrackQuery = Type.Object({
  mode: Type.Optional(
    Type.Union([Type.Literal('soft'), Type.Literal('hard')], {
      default: 'soft',
      description: 'soft: restorable until purged; hard: rows and files removed at once',
    }),
  ),
});

export const StatusBody = Type.Object({ status: StatusId });

export const ReorderBody = Type.Object({
  status_id: StatusId,
  track_orders: Type.Array(Type.Object({ trackId: Id, order: Type.Integer({ minimum: 0 }) }), {
    minItems: 1,
    maxItems: 1000,
    description: 'Every live track of the status, each once, with its new order',
  }),
});

export const ShareBody = Type.Object({
  teamId: Id,
});

export const ShareResult = Type.Object({ trackId: Id, teamIds: Type.Array(Id) });

export const ShareParams = Type.Object({ id: Id, teamId: Id });

export const ReferenceBody = Type.Object({
  url: HttpUrl,
  platform: Type.String({ minLength: 1, maxLength: 50, description: 'e.g. spotify, youtube, soundcloud' }),
});

export const InspirationBody = Type.Object({ url: HttpUrl });

export const CreatedTrack = Type.Composite([
  TrackDetail,
  Type.Object({
    versionId: Id,
    upload: Type.Object(UploadTicketFields('fileKey', 'The key of the upload of the first version’s audio'), {
      description: 'PUT the audio of the first version here',
    }),
  }),
]);
