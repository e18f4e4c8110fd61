import { Type } from '@sinclair/typebox';
import { ALBUM_TYPES } from '../../db/schema/index.ts';
import { withOlderNames } from '../../shared/older-names.ts';
import {
  CalendarDate,
  CountQuery,
  Id,
  LanguageTag,
  PageQuery,
  Timestamp,
  Uuid,
} from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';
import { BlockedBySchema } from '../tracks/approvals/blocked-by.schemas.ts';
import { ALBUM_COVER_EXAMPLE, AlbumCover } from './cover.schemas.ts';

const EXAMPLE_USER_ID = '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b';
/** Album 12 of team 7 in the examples. */
const ALBUM_EXAMPLE = {
  id: 12,
  teamId: 7,
  statusId: 'planning',
  position: 0,
  title: 'Night Drives',
  artist: 'Luna Vale',
  type: 'ep',
  releaseDate: '2026-06-05',
  label: 'Neon Harbor Records',
  upc: '012345678905',
  genre: 'Synthwave',
  language: 'en',
  tags: ['retro'],
  notes: null,
  coverFileId: 930,
  trackCount: 2,
  createdBy: EXAMPLE_USER_ID,
  createdAt: '2026-03-15T10:00:00.000Z',
  updatedAt: '2026-03-15T11:00:00.000Z',
};
const ALBUM_TRACKS_EXAMPLE = [
  {
    id: 101,
    title: 'Night Drive',
    artist: 'Luna Vale',
    statusId: 'mixing',
    position: 0,
    durationSeconds: 214.6,
  },
  { id: 104, title: 'Glass Harbor', artist: null, statusId: 'idea', position: 1, durationSeconds: null },
];

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Text = (maxLength: number) => Type.String({ maxLength });

export const StatusId = Type.String({
  maxLength: 40,
  pattern: '^[a-z0-9_]{1,40}$',
  description: "An album status id of the team's status configuration",
});

/** The fields of an album every answer has; the list's items (`Album`) and the detail build on them. */
export const AlbumFields = Type.Object(
  {
    id: Id,
    teamId: Id,
    statusId: Type.String(),
    position: Type.Integer({ description: 'Order within its status column, from 0 without gaps' }),
    title: Type.String(),
    artist: Type.Union([Type.String(), Type.Null()]),
    type: StringEnum(ALBUM_TYPES),
    releaseDate: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    label: Type.Union([Type.String(), Type.Null()]),
    upc: Type.Union([Type.String(), Type.Null()]),
    genre: Type.Union([Type.String(), Type.Null()]),
    language: Type.Union([Type.String(), Type.Null()]),
    tags: Type.Array(Type.String()),
    notes: Type.Union([Type.String(), Type.Null()]),
    coverFileId: Type.Union([Id, Type.Null()], { description: 'The cover image; links on GET /albums/{id}' }),
    trackCount: Type.Integer({
      minimum: 0,
      description: 'Tracks on the album (soft-deleted tracks left out)',
    }),
    createdBy: Type.Union([Uuid, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { examples: [ALBUM_EXAMPLE] },
);

export const AlbumTrack = Type.Object(
  {
    id: Id,
    title: Type.String(),
    artist: Type.Union([Type.String(), Type.Null()]),
    statusId: Type.String({ description: 'The track status (of the team that owns the track)' }),
    position: Type.Integer({ description: 'Place on the album, from 0' }),
    durationSeconds: Type.Union([Type.Number(), Type.Null()], {
      description: 'Of the final version, else of the newest version; null while its audio is not read',
    }),
  },
  { title: 'AlbumTrack', examples: ALBUM_TRACKS_EXAMPLE },
);

export const AlbumDetail = Type.Composite(
  [
    AlbumFields,
    Type.Object({
      cover: Type.Union([AlbumCover, Type.Null()]),
      tracks: Type.Array(AlbumTrack, { description: 'In album order' }),
    }),
  ],
  {
    title: 'AlbumDetail',
    description: 'An album with its cover (signed links) and its tracks in album order',
    examples: [{ ...ALBUM_EXAMPLE, cover: ALBUM_COVER_EXAMPLE, tracks: ALBUM_TRACKS_EXAMPLE }],
  },
);

export const Album = Type.Composite([AlbumFields, Type.Object({ blockedBy: BlockedBySchema })], {
  title: 'Album',
  description: 'An album as the board shows it: `blockedBy` says what keeps it from the next status',
  examples: [{ ...ALBUM_EXAMPLE, blockedBy: { status: 'ready', required: 2, have: 0 } }],
});

export const AlbumPage = Type.Object(
  {
    items: Type.Array(Album),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Cursor of the next page (pass it as `cursor`), null on the last page',
    }),
    total: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'Albums matching the filter; present with count=true, and when offset is given',
      }),
    ),
  },
  {
    title: 'AlbumPage',
    examples: [
      { items: [{ ...ALBUM_EXAMPLE, blockedBy: null }], nextCursor: null },
      { items: [{ ...ALBUM_EXAMPLE, blockedBy: null }], nextCursor: null, total: 1 },
    ],
  },
);

export const ALBUM_SORTS = ['updated', 'board'] as const;
export type AlbumSort = (typeof ALBUM_SORTS)[number];

export const AlbumListQuery = Type.Object({
  teamId: Id,
  status: Type.Optional(StatusId),
  type: Type.Optional(StringEnum(ALBUM_TYPES, { description: 'Extension: only albums of this type' })),
  sort: Type.Optional(
    StringEnum(ALBUM_SORTS, {
      description:
        'updated (default): most recently changed first; board: by status in the order the team configured, ' +
        'then by position within the status',
    }),
  ),
  ...PageQuery,
  offset: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 100_000,
      description: 'Skip this many albums (instead of cursor); the answer then adds total',
    }),
  ),
  ...CountQuery,
});

export const TeamQuery = Type.Object({ teamId: Id });

export const AlbumLinks = Type.Object(
  {
    albums: Type.Array(
      Type.Object({
        id: Id,
        title: Type.String(),
        statusId: Type.String(),
        trackIds: Type.Array(Id, { description: 'In album order' }),
      }),
      { description: 'Every album of the team, by title' },
    ),
    tracks: Type.Array(Type.Object({ id: Id, albumIds: Type.Array(Id) }), {
      description: 'Every track on at least one album of the team, by id',
    }),
  },
  {
    title: 'AlbumLinks',
    examples: [
      {
        albums: [
          { id: 12, title: 'Night Drives', statusId: 'planning', trackIds: [101, 104] },
          { id: 15, title: 'Summer Singles', statusId: 'idea', trackIds: [101] },
        ],
        tracks: [
          { id: 101, albumIds: [12, 15] },
          { id: 104, albumIds: [12] },
        ],
      },
    ],
  },
);

const fields = {
  artist: Nullable(Text(200)),
  type: StringEnum(ALBUM_TYPES),
  releaseDate: Nullable(CalendarDate),
  label: Nullable(Text(200)),
  upc: Nullable(
    Type.String({ maxLength: 13, pattern: '^[0-9]{12,13}$', description: 'UPC or EAN: 12 or 13 digits' }),
  ),
  genre: Nullable(Text(100)),
  language: Nullable(LanguageTag),
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 50, uniqueItems: true }),
  notes: Nullable(Text(20_000)),
};
const Title = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });

const Optional = Type.Partial(Type.Object(fields));

export const CreateAlbumBody = Type.Object(
  {
    title: Title,
    teamId: Id,
    ...Optional.properties,
  },
  {
    title: 'AlbumCreate',
    examples: [
      { title: 'Night Drives', teamId: 7, artist: 'Luna Vale', type: 'ep', releaseDate: '2026-06-05' },
    ],
  },
);

export const AlbumPatchBody = Type.Partial(Type.Object({ title: Title, ...fields }), {
  title: 'AlbumUpdate',
  minProperties: 1,
  description: 'Only the fields given change; null clears a field',
  examples: [{ title: 'Night Drives (Deluxe)', upc: '012345678905', notes: null }],
});

export const StatusBody = Type.Object(
  { status: StatusId },
  { title: 'AlbumStatusChange', examples: [{ status: 'in_production' }] },
);

export const AlbumReorderBody = withOlderNames(
  Type.Object(
    {
      statusId: StatusId,
      albumOrders: Type.Array(Type.Object({ albumId: Id, order: Type.Integer({ minimum: 0 }) }), {
        minItems: 1,
        maxItems: 1000,
        description: 'Every album of the status, each once, with its new order',
      }),
    },
    {
      title: 'AlbumReorder',
      examples: [
        {
          statusId: 'planning',
          albumOrders: [
            { albumId: 15, order: 0 },
            { albumId: 12, order: 1 },
          ],
        },
      ],
    },
  ),
  { status_id: 'statusId', album_orders: 'albumOrders' },
);

export const AlbumOrder = Type.Object(
  {
    statusId: Type.String(),
    albumIds: Type.Array(Id, { description: 'The albums of the status in their new order' }),
  },
  { title: 'AlbumReorderResult', examples: [{ statusId: 'planning', albumIds: [15, 12] }] },
);
