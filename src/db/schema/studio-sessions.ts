import { sql } from 'drizzle-orm';
import {
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { stamp, timestamps } from './columns.ts';
import { files } from './files.ts';
import { users } from './identity.ts';
import { camps, studios } from './organisations.ts';
import { teams } from './teams.ts';
import { tracks } from './tracks.ts';

export const STUDIO_SESSION_STATUSES = ['scheduled', 'live', 'ended', 'cancelled'] as const;
export type StudioSessionStatus = (typeof STUDIO_SESSION_STATUSES)[number];

/**
 * A team's studio session. With a studio it is a booking of `[starts_at, ends_at)`: no two sessions that are
 * not cancelled overlap in one studio (an exclusion constraint, see the studio_sessions_booking migration).
 */
export const studioSessions = pgTable(
  'studio_sessions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    startsAt: stamp().notNull(),
    endsAt: stamp().notNull(),
    studioId: integer().references(() => studios.id, { onDelete: 'set null' }),
    campId: integer().references(() => camps.id, { onDelete: 'set null' }),
    status: text().$type<StudioSessionStatus>().notNull().default('scheduled'),
    notes: text(),
    /** The version of the session's join links: a rotation raises it, and every earlier link stops working. */
    linkVersion: integer().notNull().default(1),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [
    check('studio_sessions_ends_after_start', sql`${t.endsAt} > ${t.startsAt}`),
    check('studio_sessions_status_check', sql`${t.status} in ('scheduled', 'live', 'ended', 'cancelled')`),
    index('studio_sessions_team_starts_idx').on(t.teamId, t.startsAt, t.id),
    index('studio_sessions_studio_idx').on(t.studioId).where(sql`${t.studioId} is not null`),
    index('studio_sessions_camp_idx').on(t.campId).where(sql`${t.campId} is not null`),
  ],
);

export const PARTICIPANT_STATUSES = ['invited', 'accepted', 'declined'] as const;
export type ParticipantStatus = (typeof PARTICIPANT_STATUSES)[number];

/**
 * Someone invited to a session: a user (by id), or anyone by e-mail. An e-mail invitation is answered by the
 * signed-in user with that address, and from then on also names that user.
 */
export const sessionParticipants = pgTable(
  'session_participants',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    sessionId: integer()
      .notNull()
      .references(() => studioSessions.id, { onDelete: 'cascade' }),
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    email: text(),
    name: text(),
    status: text().$type<ParticipantStatus>().notNull().default('invited'),
    invitedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** SHA-256 hex of the token mailed with an e-mail invitation; cleared once it is answered. */
    tokenHash: text(),
    respondedAt: stamp(),
    ...timestamps(),
  },
  (t) => [
    check('session_participants_someone', sql`num_nonnulls(${t.userId}, ${t.email}) >= 1`),
    check('session_participants_status_check', sql`${t.status} in ('invited', 'accepted', 'declined')`),
    uniqueIndex('session_participants_user_unique').on(t.sessionId, t.userId),
    uniqueIndex('session_participants_email_unique').on(t.sessionId, sql`lower(${t.email})`),
    uniqueIndex('session_participants_token_hash_unique').on(t.tokenHash),
    index('session_participants_user_idx').on(t.userId).where(sql`${t.userId} is not null`),
    index('session_participants_email_idx').on(sql`lower(${t.email})`).where(sql`${t.email} is not null`),
  ],
);

/**
 * People a join link no longer brings in: a participant removed from one session (`sessionId`; until they are
 * invited again), or a person who left or was removed from the team (`sessionId` null; links of the team's
 * sessions made before `refusedAt`).
 */
export const sessionLinkRefusals = pgTable(
  'session_link_refusals',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    sessionId: integer().references(() => studioSessions.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    refusedAt: stamp().notNull(),
  },
  (t) => [
    uniqueIndex('session_link_refusals_unique').on(t.userId, t.teamId, sql`coalesce(${t.sessionId}, 0)`),
  ],
);

/** Tracks of the team worked on in a session. */
export const sessionSongs = pgTable(
  'session_songs',
  {
    sessionId: integer()
      .notNull()
      .references(() => studioSessions.id, { onDelete: 'cascade' }),
    trackId: integer()
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    addedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    addedAt: stamp().notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.trackId] }),
    index('session_songs_order_idx').on(t.sessionId, t.addedAt, t.trackId),
    index('session_songs_track_idx').on(t.trackId),
  ],
);

export const RECORDING_STATUSES = ['live', 'stopped', 'ready'] as const;
export type RecordingStatus = (typeof RECORDING_STATUSES)[number];

/**
 * A recording of a session: `live` while it runs (no audio yet), `stopped` once it ended without audio,
 * `ready` with its audio file (files owned by `session_recording` / the session id).
 */
export const sessionRecordings = pgTable(
  'session_recordings',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    sessionId: integer()
      .notNull()
      .references(() => studioSessions.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    status: text().$type<RecordingStatus>().notNull(),
    fileId: integer().references(() => files.id, { onDelete: 'set null' }),
    startedAt: stamp(),
    stoppedAt: stamp(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [
    check('session_recordings_status_check', sql`${t.status} in ('live', 'stopped', 'ready')`),
    index('session_recordings_session_idx').on(t.sessionId, t.id),
    // One recording runs at a time in a session.
    uniqueIndex('session_recordings_one_live').on(t.sessionId).where(sql`${t.status} = 'live'`),
  ],
);

/** A named point in a recording. */
export const recordingMarkers = pgTable(
  'recording_markers',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    recordingId: integer()
      .notNull()
      .references(() => sessionRecordings.id, { onDelete: 'cascade' }),
    label: text().notNull(),
    positionSeconds: doublePrecision().notNull(),
    color: text().notNull(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (t) => [
    check('recording_markers_position_check', sql`${t.positionSeconds} >= 0`),
    index('recording_markers_position_idx').on(t.recordingId, t.positionSeconds, t.id),
  ],
);

/** The shared JSON document of a session; `version` counts its writes (no row: version 0, `{}`). */
export const sessionCanvases = pgTable('session_canvases', {
  sessionId: integer()
    .primaryKey()
    .references(() => studioSessions.id, { onDelete: 'cascade' }),
  version: integer().notNull(),
  content: jsonb().$type<Record<string, unknown>>().notNull(),
  updatedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
  updatedAt: stamp().notNull(),
});

/**
 * A member's calendar feed of a team's sessions: its URL carries `version`, so rotating the feed (a new
 * version) revokes every URL handed out before.
 */
export const sessionCalendarFeeds = pgTable(
  'session_calendar_feeds',
  {
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    version: integer().notNull().default(1),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] })],
);
