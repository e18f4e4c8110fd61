import { type TSchema, Type } from '@sinclair/typebox';
import { SHARE_ACTIVITY_KINDS, SHARE_DOWNLOADS, SHARE_TARGET_TYPES } from '../../db/schema/index.ts';
import { Id, Page, PageQuery, Timestamp, TimestampInput, Uuid } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';
import { LINK_STATUSES } from './link-status.ts';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const MAX_RECIPIENTS = 50;
export const MAX_PLAYLIST_TRACKS = 100;
export const MAX_ALLOWED_STEMS = 200;

const Email = Type.String({ format: 'email', maxLength: 320 });
const Title = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Shown to guests above what is shared',
});
const Message = Type.String({ minLength: 1, maxLength: 5000, description: 'A note to guests' });
const Password = Type.String({
  minLength: 4,
  maxLength: 200,
  description: 'Guests must give it before anything opens; stored only as a hash, never shown back',
});
const AllowDownload = StringEnum(SHARE_DOWNLOADS, {
  description:
    "none: listening only; preview: the version's lossy preview file; original: the version's audio and the allowed stems' audio",
});
const AllowStems = Type.Array(Id, {
  maxItems: MAX_ALLOWED_STEMS,
  uniqueItems: true,
  description: 'Stems guests see: stems of the versions the link shows (others are 400)',
});
const AllowComments = Type.Boolean({ description: 'Whether guests may write timestamped comments' });

const TrackTarget = Type.Object(
  { trackId: Id },
  { description: 'A track: guests follow its final (else latest) version' },
);
const VersionTarget = Type.Object({ versionId: Id }, { description: 'One version of a track' });
const AlbumTarget = Type.Object({ albumId: Id }, { description: 'An album, its tracks in album order' });
const PlaylistTarget = Type.Object(
  {
    trackIds: Type.Array(Id, {
      minItems: 1,
      maxItems: MAX_PLAYLIST_TRACKS,
      uniqueItems: true,
      description: 'Tracks of the team, in the order guests get them',
    }),
  },
  { description: 'A playlist' },
);

export const ShareTargetInput = Type.Union([TrackTarget, VersionTarget, AlbumTarget, PlaylistTarget], {
  title: 'ShareLinkTargetInput',
  description:
    'Exactly one of {trackId}, {versionId}, {albumId}, {trackIds}: what the link shows, owned by the team and live (404 naming it otherwise; a track merely shared with the team is 404 too)',
});

export const CreateShareLinkBody = Type.Object(
  {
    teamId: Id,
    target: ShareTargetInput,
    title: Type.Optional(Title),
    message: Type.Optional(Message),
    expiresAt: Type.Optional(TimestampInput),
    password: Type.Optional(Password),
    allowDownload: Type.Optional(AllowDownload),
    allowStems: Type.Optional(AllowStems),
    allowComments: Type.Optional(AllowComments),
    recipients: Type.Optional(
      Type.Array(Email, {
        maxItems: MAX_RECIPIENTS,
        description: 'People to mail their own link to (each gets a way in with its own token and counts)',
      }),
    ),
  },
  {
    title: 'ShareLinkCreate',
    examples: [
      {
        teamId: 7,
        target: { trackId: 42 },
        title: 'Mix 3 for the label',
        message: 'Listen on good speakers, please.',
        expiresAt: '2027-01-31T23:59:00Z',
        allowDownload: 'preview',
        allowComments: true,
        recipients: ['anna@label.example'],
      },
    ],
  },
);

export const PatchShareLinkBody = Type.Object(
  {
    title: Type.Optional(Nullable(Title)),
    message: Type.Optional(Nullable(Message)),
    expiresAt: Type.Optional(Nullable(TimestampInput)),
    password: Type.Optional(Nullable(Password)),
    allowDownload: Type.Optional(AllowDownload),
    allowStems: Type.Optional(AllowStems),
    allowComments: Type.Optional(AllowComments),
  },
  {
    title: 'ShareLinkPatch',
    minProperties: 1,
    description:
      'The fields to change (at least one): null clears title, message, expiresAt (never expires) and password. ' +
      'Any change of the password ends the guest tokens unlocked with the earlier one.',
    examples: [{ expiresAt: null, password: 'new-secret', allowComments: false }],
  },
);

export const Stats = Type.Object(
  {
    opens: Type.Integer({ minimum: 0 }),
    plays: Type.Integer({ minimum: 0 }),
    secondsListened: Type.Number({ minimum: 0 }),
    downloads: Type.Integer({ minimum: 0 }),
    comments: Type.Integer({ minimum: 0 }),
    firstSeenAt: Nullable(Timestamp),
    lastSeenAt: Nullable(Timestamp),
  },
  { title: 'ShareLinkStats', description: 'What guests did (opens less than 30 minutes apart count once)' },
);

const STATS_EXAMPLE = {
  opens: 3,
  plays: 5,
  secondsListened: 611.5,
  downloads: 1,
  comments: 2,
  firstSeenAt: '2026-05-02T10:11:00.000Z',
  lastSeenAt: '2026-05-03T08:40:12.000Z',
};
const TOKEN_EXAMPLE = 'Xk3v9QpL2mN8rT5wY7zA1bAbCdEfGhIjKlMnOpQrStUv';

export const Recipient = Type.Object(
  {
    id: Id,
    email: Type.String(),
    token: Type.String({ description: "This recipient's own token" }),
    url: Type.String({ description: "This recipient's own URL: what the mail held" }),
    revokedAt: Nullable(Timestamp),
    stats: Stats,
  },
  {
    title: 'ShareLinkRecipient',
    examples: [
      {
        id: 12,
        email: 'anna@label.example',
        token: TOKEN_EXAMPLE,
        url: `https://api.example.com/api/v1/shared/${TOKEN_EXAMPLE}`,
        revokedAt: null,
        stats: STATS_EXAMPLE,
      },
    ],
  },
);

const Target = Type.Object(
  {
    type: StringEnum(SHARE_TARGET_TYPES),
    trackId: Nullable(Id),
    versionId: Nullable(Id),
    albumId: Nullable(Id),
    trackIds: Type.Array(Id, { description: 'The tracks of a playlist, in order; empty otherwise' }),
  },
  { title: 'ShareLinkTarget' },
);

export const ShareLink = Type.Object(
  {
    id: Id,
    teamId: Id,
    target: Target,
    title: Nullable(Type.String()),
    message: Nullable(Type.String()),
    token: Type.String({ description: "The link's general token (for anyone it is passed on to)" }),
    url: Type.String({ description: 'The general URL guests open' }),
    expiresAt: Nullable(Timestamp),
    hasPassword: Type.Boolean(),
    allowDownload: AllowDownload,
    allowStems: Type.Array(Id),
    allowComments: Type.Boolean(),
    status: StringEnum(LINK_STATUSES, {
      description:
        'revoked, expired, gone (the track deleted, the version or album deleted, no live track of a playlist left) or active',
    }),
    revokedAt: Nullable(Timestamp),
    recipients: Type.Array(Recipient, { description: 'The ways in mailed to people, oldest first' }),
    stats: Stats,
    createdBy: Nullable(Uuid),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'ShareLink',
    examples: [
      {
        id: 3,
        teamId: 7,
        target: { type: 'track', trackId: 42, versionId: null, albumId: null, trackIds: [] },
        title: 'Mix 3 for the label',
        message: 'Listen on good speakers, please.',
        token: TOKEN_EXAMPLE,
        url: `https://api.example.com/api/v1/shared/${TOKEN_EXAMPLE}`,
        expiresAt: '2027-01-31T23:59:00.000Z',
        hasPassword: false,
        allowDownload: 'preview',
        allowStems: [],
        allowComments: true,
        status: 'active',
        revokedAt: null,
        recipients: [],
        stats: STATS_EXAMPLE,
        createdBy: '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b',
        createdAt: '2026-05-01T09:30:00.000Z',
        updatedAt: '2026-05-01T09:30:00.000Z',
      },
    ],
  },
);

export const ShareLinkPage = Page(ShareLink);

export const ShareLinkListQuery = Type.Object({
  teamId: Id,
  status: Type.Optional(StringEnum(LINK_STATUSES)),
  trackId: Type.Optional(Id),
  albumId: Type.Optional(Id),
  ...PageQuery,
});

export const ShareLinkParams = Type.Object({ id: Id });
export const RecipientParams = Type.Object({ id: Id, recipientId: Id });

export const AddRecipientBody = Type.Object(
  { email: Email },
  { title: 'ShareLinkRecipientCreate', examples: [{ email: 'anna@label.example' }] },
);

export const ActivityQuery = Type.Object({
  recipientId: Type.Optional(Id),
  kind: Type.Optional(StringEnum(SHARE_ACTIVITY_KINDS)),
  ...PageQuery,
});

const ActivityItem = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    kind: StringEnum(SHARE_ACTIVITY_KINDS),
    recipientId: Id,
    recipientEmail: Nullable(Type.String({ description: 'null: the general way in' })),
    versionId: Nullable(Id),
    stemId: Nullable(Id),
    fileId: Nullable(Id),
    seconds: Nullable(Type.Number({ description: 'A play: the seconds listened' })),
    at: Timestamp,
  },
  { title: 'ShareLinkActivityItem' },
);

export const ShareLinkActivity = Type.Object(
  {
    totals: Stats,
    recipients: Type.Array(
      Type.Object({
        id: Id,
        email: Nullable(Type.String({ description: 'null: the general way in' })),
        stats: Stats,
      }),
      { description: 'Every way in, the general one first' },
    ),
    items: Type.Array(ActivityItem),
    nextCursor: Nullable(Type.String()),
  },
  {
    title: 'ShareLinkActivity',
    examples: [
      {
        totals: STATS_EXAMPLE,
        recipients: [
          { id: 11, email: null, stats: STATS_EXAMPLE },
          { id: 12, email: 'anna@label.example', stats: STATS_EXAMPLE },
        ],
        items: [
          {
            id: 90,
            kind: 'play',
            recipientId: 12,
            recipientEmail: 'anna@label.example',
            versionId: 51,
            stemId: null,
            fileId: null,
            seconds: 182.4,
            at: '2026-05-03T08:40:12.000Z',
          },
        ],
        nextCursor: null,
      },
    ],
  },
);
