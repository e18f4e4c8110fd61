import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { boardCard, createdBy, releaseFields, stamp, timestamps } from './columns.ts';
import { files } from './files.ts';
import { users } from './identity.ts';
import { teams } from './teams.ts';

export const tracks = pgTable(
  'tracks',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    ...boardCard(),
    ...releaseFields(),
    bpm: numeric({ precision: 6, scale: 2, mode: 'number' }),
    musicalKey: text(),
    isrc: text(),
    distributor: text(),
    explicit: boolean(),
    lyrics: text(),
    deletedAt: stamp(),
    ...createdBy(),
    ...timestamps(),
  },
  (t) => [
    index('tracks_team_status_idx').on(t.teamId, t.statusId, t.position),
    index('tracks_updated_idx').on(t.updatedAt, t.id),
    index('tracks_title_idx').on(sql`lower(${t.title})`, t.id),
    index('tracks_deleted_idx').on(t.deletedAt).where(sql`${t.deletedAt} is not null`),
    // A team's page of its own tracks walks these and stops after the page, whatever the team's size.
    index('tracks_team_updated_idx').on(t.teamId, t.updatedAt, t.id).where(sql`${t.deletedAt} is null`),
    index('tracks_team_title_idx')
      .on(t.teamId, sql`lower(${t.title})`, t.id)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/**
 * Every team that holds a track: its owning team (`owner`) and the teams it is shared with. Lists and
 * access checks go through this table.
 */
export const trackTeams = pgTable(
  'track_teams',
  {
    trackId: integer()
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    addedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    addedAt: stamp().notNull().defaultNow(),
    /** The row of the track's own team (`tracks.team_id`), which a track never leaves. */
    owner: boolean().notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.trackId, t.teamId] }),
    index('track_teams_team_idx').on(t.teamId, t.trackId),
    index('track_teams_shared_idx').on(t.teamId, t.trackId).where(sql`not ${t.owner}`),
  ],
);

/** How a version's notes came over from the version before it (set once, when they were carried). */
export type NotesCarried = {
  fromVersionId: number;
  comments: number;
  todos: number;
  offsetSeconds: number | null;
  confidence: number | null;
  mapped: boolean;
  at: string;
};

/** Where a carried comment came from, and whether its time was mapped onto the new audio. */
export type CommentCarriedFrom = {
  versionId: number;
  commentId: number;
  atSeconds: number | null;
  mapped: boolean;
};
/** Where a carried to-do came from. */
export type TodoCarriedFrom = { versionId: number; todoId: number };

export const REVIEW_STATES = ['none', 'pending', 'approved', 'changes_requested'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const trackVersions = pgTable(
  'track_versions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    trackId: integer()
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    name: text().notNull(),
    notes: text(),
    isFinal: boolean().notNull().default(false),
    audioFileName: text().notNull(),
    /** Blob key of the audio once uploaded. */
    audioFileKey: text(),
    durationSeconds: doublePrecision(),
    /** Set once the previous version's open notes were carried here. */
    notesCarried: jsonb().$type<NotesCarried>(),
    ...createdBy(),
    ...timestamps(),
  },
  (t) => [
    index('track_versions_track_idx').on(t.trackId, t.position, t.id),
    uniqueIndex('track_versions_one_final').on(t.trackId).where(sql`${t.isFinal}`),
  ],
);

export const versionComments = pgTable(
  'version_comments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    versionId: integer()
      .notNull()
      .references(() => trackVersions.id, { onDelete: 'cascade' }),
    parentId: integer().references((): AnyPgColumn => versionComments.id, { onDelete: 'cascade' }),
    /** Position in the audio the comment is about; null for a general comment. */
    atSeconds: doublePrecision(),
    body: text().notNull(),
    editedAt: stamp(),
    resolvedAt: stamp(),
    /** Who resolved it; null with `resolvedAt` set when an API key did. */
    resolvedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** The comment of an earlier version this one is a copy of (kept as it was: the original may go). */
    carriedFrom: jsonb().$type<CommentCarriedFrom>(),
    ...createdBy(),
    createdAt: stamp().notNull().defaultNow(),
  },
  (t) => [
    index('version_comments_order_idx').on(t.versionId, sql`coalesce(${t.atSeconds}, -1)`, t.id),
    index('version_comments_parent_idx').on(t.parentId),
  ],
);

export const commentReactions = pgTable(
  'comment_reactions',
  {
    commentId: integer()
      .notNull()
      .references(() => versionComments.id, { onDelete: 'cascade' }),
    /** `u:<user id>` or `k:<key id>`: one reaction per actor and emoji. */
    actor: text().notNull(),
    emoji: text().notNull(),
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: stamp().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.actor, t.emoji] })],
);

export const versionTodos = pgTable(
  'version_todos',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    versionId: integer()
      .notNull()
      .references(() => trackVersions.id, { onDelete: 'cascade' }),
    text: text().notNull(),
    done: boolean().notNull().default(false),
    assigneeId: uuid().references(() => users.id, { onDelete: 'set null' }),
    dueDate: date({ mode: 'string' }),
    /** The comment the to-do was made from (one to-do per comment). */
    commentId: integer().references((): AnyPgColumn => versionComments.id, { onDelete: 'set null' }),
    /** The to-do of an earlier version this one is a copy of. */
    carriedFrom: jsonb().$type<TodoCarriedFrom>(),
    ...createdBy(),
    ...timestamps(),
  },
  (t) => [
    index('version_todos_version_idx').on(t.versionId, t.id),
    uniqueIndex('version_todos_comment_unique').on(t.commentId).where(sql`${t.commentId} is not null`),
  ],
);

export const REVIEW_STATUSES = ['pending', 'withdrawn', 'approved', 'changes_requested'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const REVIEW_DECISIONS = ['approved', 'changes_requested'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export const versionReviews = pgTable(
  'version_reviews',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    versionId: integer()
      .notNull()
      .references(() => trackVersions.id, { onDelete: 'cascade' }),
    status: text().$type<ReviewStatus>().notNull().default('pending'),
    requestedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    closedAt: stamp(),
    ...timestamps(),
  },
  (t) => [
    index('version_reviews_version_idx').on(t.versionId, t.id),
    // At most one open review per version.
    uniqueIndex('version_reviews_one_open').on(t.versionId).where(sql`${t.status} = 'pending'`),
  ],
);

export const reviewReviewers = pgTable(
  'review_reviewers',
  {
    reviewId: integer()
      .notNull()
      .references(() => versionReviews.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    listenedAt: stamp(),
    decision: text().$type<ReviewDecision>(),
    decidedAt: stamp(),
  },
  (t) => [primaryKey({ columns: [t.reviewId, t.userId] }), index('review_reviewers_user_idx').on(t.userId)],
);

export const trackCollaborators = pgTable(
  'track_collaborators',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    trackId: integer()
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    email: text(),
    roles: text().array().notNull(),
    ...createdBy(),
    createdAt: stamp().notNull().defaultNow(),
  },
  (t) => [index('track_collaborators_track_idx').on(t.trackId, t.id)],
);

/** Links about a track: references (with the platform they live on) and inspirations. */
export const TRACK_LINK_KINDS = ['reference', 'inspiration'] as const;
export type TrackLinkKind = (typeof TRACK_LINK_KINDS)[number];

export const trackLinks = pgTable(
  'track_links',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    trackId: integer()
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    kind: text().$type<TrackLinkKind>().notNull(),
    url: text().notNull(),
    platform: text(),
    ...createdBy(),
    createdAt: stamp().notNull().defaultNow(),
  },
  (t) => [index('track_links_track_idx').on(t.trackId, t.kind, t.id)],
);

/** Stems of a version: named audio parts (drums, vocals, ...) whose file lives in the files area. */
export const versionStems = pgTable(
  'version_stems',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    versionId: integer()
      .notNull()
      .references(() => trackVersions.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    instrument: text(),
    notes: text(),
    position: integer().notNull(),
    /** The stem's audio; null once its file was cleaned up. */
    fileId: integer().references(() => files.id, { onDelete: 'set null' }),
    /** Whether only `downloadableBy` (and the owning team's owners) may fetch the stem's audio. */
    restricted: boolean().notNull().default(false),
    /** Who else may fetch a restricted stem's audio: roles of the owning team and kinds of callers. */
    downloadableBy: text().array().notNull().default(sql`'{}'::text[]`),
    ...createdBy(),
    ...timestamps(),
  },
  (t) => [
    index('version_stems_version_idx').on(t.versionId, t.position, t.id),
    index('version_stems_file_idx').on(t.fileId),
  ],
);

/** A play: recorded when a client fetches the stream URL of a version. */
export const versionPlays = pgTable(
  'version_plays',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    versionId: integer()
      .notNull()
      .references(() => trackVersions.id, { onDelete: 'cascade' }),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    keyId: integer(),
    playedAt: stamp().notNull().defaultNow(),
  },
  (t) => [index('version_plays_version_idx').on(t.versionId, t.playedAt, t.id)],
);
