import { Type } from '@sinclair/typebox';
import { SHARE_DOWNLOADS } from '../../../db/schema/index.ts';
import { Id, Page, PageQuery, Timestamp } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { Peaks } from '../../files/files.schemas.ts';
import { EXAMPLE_LATER, EXAMPLE_URL_EXPIRES, exampleDownloadUrl } from '../../tracks/tracks.schemas.ts';
import { GUEST_URL_SECONDS } from './guest-marks.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const EXAMPLE_TOKEN = 'Qm9zc2EtTm92YS0yMDI2LTA0X3q1ZmFrZS1tYWMtMTI';

export const SharedParams = Type.Object({
  token: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'The token of the review link’s URL (its general URL or a recipient’s own)',
    examples: [EXAMPLE_TOKEN],
  }),
});

export const GuestTokenHeaders = Type.Object(
  {
    'guest-token': Type.Optional(
      Type.String({
        maxLength: 1024,
        description:
          'The guest token of POST /api/v1/shared/{token}/unlock; needed while the link has a password, ignored otherwise',
      }),
    ),
  },
  { additionalProperties: true },
);

const PEAKS = {
  status: 'ready',
  bucketCount: 4,
  durationSeconds: 211.4,
  min: [-0.4, -0.8, -0.7, -0.2],
  max: [0.5, 0.9, 0.6, 0.3],
};

const GuestTrack = Type.Object(
  {
    id: Id,
    title: Type.String(),
    artist: Nullable(Type.String()),
    genre: Nullable(Type.String()),
    language: Nullable(Type.String()),
    releaseDate: Nullable(Type.String({ format: 'date' })),
    bpm: Nullable(Type.Number()),
    musicalKey: Nullable(Type.String()),
    explicit: Nullable(Type.Boolean()),
  },
  { title: 'SharedTrack', description: 'What a listener sees of a track' },
);

const AudioUrl = (what: string) =>
  Nullable(Type.String({ description: `${what}; a signed URL living ${GUEST_URL_SECONDS / 60} minutes` }));

const GuestVersion = Type.Object(
  {
    id: Id,
    name: Type.String(),
    durationSeconds: Nullable(Type.Number()),
    peaks: Nullable(Peaks),
    streamUrl: AudioUrl(
      'To play the version: its original audio when the link allows originals, else its lossy preview when it ' +
        'has one; null while it has no audio',
    ),
    downloadUrl: AudioUrl(
      'To save the version: its lossy preview (allowDownload preview) or its original audio (original); null ' +
        'when the link allows no download of it',
    ),
    downloadable: Type.Boolean({ description: 'Whether downloadUrl is given' }),
  },
  { title: 'SharedVersion' },
);

const GuestStem = Type.Object(
  {
    id: Id,
    name: Type.String(),
    instrument: Nullable(Type.String()),
    peaks: Nullable(Peaks),
    downloadable: Type.Boolean({ description: 'Whether downloadUrl is given' }),
    streamUrl: AudioUrl('To play the stem; null when the stem’s rights keep its audio from review links'),
    downloadUrl: AudioUrl(
      'To save the stem; only on a link that allows originals, and only when its rights let review links have it',
    ),
  },
  { title: 'SharedStem' },
);

const VIEW_EXAMPLE = {
  link: {
    title: 'Night Drive — mixes for review',
    message: 'Second round, notes welcome by Friday.',
    expiresAt: '2026-04-30T22:00:00.000Z',
    allowDownload: 'preview',
    allowComments: true,
    team: { name: 'Luna Vale' },
  },
  items: [
    {
      track: {
        id: 101,
        title: 'Night Drive',
        artist: 'Luna Vale',
        genre: 'Synthpop',
        language: 'en',
        releaseDate: null,
        bpm: 108,
        musicalKey: 'A minor',
        explicit: false,
      },
      version: {
        id: 502,
        name: 'Mix 3',
        durationSeconds: 211.4,
        peaks: PEAKS,
        streamUrl: exampleDownloadUrl('zdHJlYW0'),
        downloadUrl: exampleDownloadUrl('ZG93bmxvYWQ'),
        downloadable: true,
      },
      stems: [
        {
          id: 61,
          name: 'Drums',
          instrument: 'drums',
          peaks: PEAKS,
          downloadable: false,
          streamUrl: exampleDownloadUrl('ZHJ1bXM'),
          downloadUrl: null,
        },
      ],
    },
  ],
  urlExpiresAt: EXAMPLE_URL_EXPIRES,
};

export const SharedView = Type.Object(
  {
    link: Type.Object(
      {
        title: Nullable(Type.String()),
        message: Nullable(Type.String()),
        expiresAt: Nullable(Timestamp),
        allowDownload: StringEnum(SHARE_DOWNLOADS),
        allowComments: Type.Boolean(),
        team: Type.Object({ name: Type.String() }, { title: 'SharedTeam' }),
      },
      { title: 'SharedLinkInfo' },
    ),
    items: Type.Array(
      Type.Object(
        { track: GuestTrack, version: GuestVersion, stems: Type.Array(GuestStem) },
        { title: 'SharedItem' },
      ),
      {
        description:
          'A track link: the track’s final version (else its newest); a version link: that version; an album: ' +
          'its tracks in album order; a playlist: its tracks in order (deleted tracks left out)',
      },
    ),
    urlExpiresAt: Nullable(Timestamp),
  },
  { title: 'SharedLink', examples: [VIEW_EXAMPLE] },
);

export const UnlockBody = Type.Object(
  { password: Type.String({ minLength: 1, maxLength: 200 }) },
  { title: 'SharedLinkUnlock', examples: [{ password: 'night-drive-2026' }] },
);

export const UnlockResult = Type.Object(
  {
    guestToken: Type.String({
      description: 'Send it as the Guest-Token header of the link’s other requests',
    }),
    expiresAt: Timestamp,
  },
  {
    title: 'SharedLinkGuestToken',
    examples: [
      {
        guestToken: 'eyJyIjozMSwidiI6MiwiZXhwIjoxNzc0MjE1MTAwfQ.5bEq2m0VxZ3kJrA3mYy1cWb0kq7dPq8Xq9dGmCzvQxE',
        expiresAt: EXAMPLE_LATER,
      },
    ],
  },
);

export const GuestComment = Type.Object(
  {
    id: Id,
    versionId: Id,
    parentId: Nullable(Id),
    timestampSeconds: Nullable(
      Type.Number({ description: 'Seconds into the audio; null for a general comment' }),
    ),
    body: Type.String(),
    author: Type.Object(
      {
        kind: StringEnum(['guest', 'team'] as const, {
          description: 'guest: written through this link; team: a reply of the team',
        }),
        name: Nullable(Type.String()),
      },
      { title: 'SharedCommentAuthor' },
    ),
    createdAt: Timestamp,
  },
  {
    title: 'SharedComment',
    examples: [
      {
        id: 3301,
        versionId: 502,
        parentId: null,
        timestampSeconds: 42.5,
        body: 'Love the chorus; the snare is a bit loud here.',
        author: { kind: 'guest', name: 'Ana (A&R)' },
        createdAt: EXAMPLE_LATER,
      },
    ],
  },
);

export const GuestCommentPage = Page(GuestComment);
export const GuestCommentListQuery = Type.Object(PageQuery);

export const GuestCommentBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Who is writing' }),
    body: Type.String({ minLength: 1, maxLength: 5000, pattern: '\\S' }),
    timestampSeconds: Type.Number({
      minimum: 0,
      maximum: 86_400,
      description: 'Seconds into the audio; at most the version’s duration when it is known',
    }),
    versionId: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2_147_483_647,
        description: 'Required when the link shows more than one version',
      }),
    ),
  },
  {
    title: 'SharedCommentCreate',
    examples: [
      { name: 'Ana (A&R)', body: 'Love the chorus; the snare is a bit loud here.', timestampSeconds: 42.5 },
    ],
  },
);

export const PlayBody = Type.Object(
  {
    versionId: Id,
    playId: Type.String({
      format: 'uuid',
      maxLength: 45,
      description: 'Chosen by the player for one listening; send it again with each report of that listening',
    }),
    secondsListened: Type.Number({
      minimum: 0,
      maximum: 86_400,
      description: 'Seconds listened so far in this listening (capped at the version’s duration)',
    }),
  },
  {
    title: 'SharedPlayReport',
    examples: [{ versionId: 502, playId: '0195f3c2-8a4b-7c1d-9e2f-3a4b5c6d7e8f', secondsListened: 95.5 }],
  },
);
