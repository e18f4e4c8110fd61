import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { albums } from './albums.ts';
import { createdBy, stamp, timestamps } from './columns.ts';
import { files } from './files.ts';
import { teams } from './teams.ts';
import { tracks, trackVersions, versionComments, versionStems } from './tracks.ts';

export const SHARE_TARGET_TYPES = ['track', 'version', 'album', 'playlist'] as const;
export type ShareTargetType = (typeof SHARE_TARGET_TYPES)[number];
export const SHARE_DOWNLOADS = ['none', 'preview', 'original'] as const;
export type ShareDownload = (typeof SHARE_DOWNLOADS)[number];
export const SHARE_ACTIVITY_KINDS = ['open', 'play', 'download', 'comment'] as const;
export type ShareActivityKind = (typeof SHARE_ACTIVITY_KINDS)[number];

/**
 * A review link: what a team shows to people without an account (a track, a version, an album or a list of
 * tracks), with what they may do there. Every way in is a row of `share_link_recipients` (the link's own
 * variant, with no e-mail, and one per recipient).
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    targetType: text({ enum: SHARE_TARGET_TYPES }).notNull(),
    trackId: integer().references(() => tracks.id, { onDelete: 'cascade' }),
    versionId: integer().references(() => trackVersions.id, { onDelete: 'cascade' }),
    albumId: integer().references(() => albums.id, { onDelete: 'cascade' }),
    /** The tracks of a playlist link, in order (ids of the owning team's tracks). */
    trackIds: integer().array().notNull().default(sql`'{}'::int[]`),
    title: text(),
    message: text(),
    expiresAt: stamp(),
    passwordHash: text(),
    /** Raised whenever the password changes, so guest tokens unlocked with an earlier one stop working. */
    passwordVersion: integer().notNull().default(0),
    allowDownload: text({ enum: SHARE_DOWNLOADS }).notNull().default('none'),
    /** The stems the link shows (of its versions); restricted ones only as their rights allow. */
    allowStems: integer().array().notNull().default(sql`'{}'::int[]`),
    allowComments: boolean().notNull().default(false),
    revokedAt: stamp(),
    ...createdBy(),
    ...timestamps(),
  },
  (t) => [
    index('share_links_team_idx').on(t.teamId, t.createdAt, t.id),
    index('share_links_track_idx').on(t.trackId),
    index('share_links_version_idx').on(t.versionId),
    index('share_links_album_idx').on(t.albumId),
    index('share_links_creator_idx').on(t.teamId, t.createdBy),
    check(
      'share_links_target',
      sql`(${t.targetType} = 'track' and ${t.trackId} is not null)
        or (${t.targetType} = 'version' and ${t.versionId} is not null and ${t.trackId} is not null)
        or (${t.targetType} = 'album' and ${t.albumId} is not null)
        or (${t.targetType} = 'playlist' and cardinality(${t.trackIds}) > 0)`,
    ),
  ],
);

/**
 * One way into a link, with its own token and its own counts: the link's general variant (`email` null) or a
 * recipient's. The token is derived from `publicId` and the service's secret, never stored.
 */
export const shareLinkRecipients = pgTable(
  'share_link_recipients',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    linkId: integer()
      .notNull()
      .references(() => shareLinks.id, { onDelete: 'cascade' }),
    email: text(),
    publicId: text().notNull(),
    revokedAt: stamp(),
    opens: integer().notNull().default(0),
    plays: integer().notNull().default(0),
    secondsListened: doublePrecision().notNull().default(0),
    downloads: integer().notNull().default(0),
    comments: integer().notNull().default(0),
    firstSeenAt: stamp(),
    lastSeenAt: stamp(),
    createdAt: stamp().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('share_link_recipients_public_id').on(t.publicId),
    uniqueIndex('share_link_recipients_general').on(t.linkId).where(sql`${t.email} is null`),
    uniqueIndex('share_link_recipients_email').on(t.linkId, sql`lower(${t.email})`),
  ],
);

/** What guests did through a link, newest last: opens, plays (with seconds listened), downloads, comments. */
export const shareLinkActivity = pgTable(
  'share_link_activity',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    linkId: integer()
      .notNull()
      .references(() => shareLinks.id, { onDelete: 'cascade' }),
    recipientId: integer()
      .notNull()
      .references(() => shareLinkRecipients.id, { onDelete: 'cascade' }),
    kind: text({ enum: SHARE_ACTIVITY_KINDS }).notNull(),
    versionId: integer().references(() => trackVersions.id, { onDelete: 'set null' }),
    stemId: integer().references(() => versionStems.id, { onDelete: 'set null' }),
    fileId: integer().references(() => files.id, { onDelete: 'set null' }),
    /** A play's listening, chosen by the guest's player: later reports of the same play raise its seconds. */
    playId: uuid(),
    seconds: doublePrecision(),
    at: stamp().notNull().defaultNow(),
  },
  (t) => [
    index('share_link_activity_link_idx').on(t.linkId, t.id),
    uniqueIndex('share_link_activity_play').on(t.recipientId, t.playId).where(sql`${t.playId} is not null`),
  ],
);

/** Comments guests wrote through a link: the comment itself is an ordinary comment with no author. */
export const shareLinkComments = pgTable(
  'share_link_comments',
  {
    commentId: integer()
      .primaryKey()
      .references(() => versionComments.id, { onDelete: 'cascade' }),
    linkId: integer()
      .notNull()
      .references(() => shareLinks.id, { onDelete: 'cascade' }),
    recipientId: integer().references(() => shareLinkRecipients.id, { onDelete: 'set null' }),
    /** The name the guest gave. */
    name: text().notNull(),
  },
  (t) => [index('share_link_comments_link_idx').on(t.linkId, t.commentId)],
);
