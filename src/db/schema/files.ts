import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './identity.ts';
import { teams } from './teams.ts';

export const FILE_KIND_VALUES = ['audio', 'image', 'video', 'document'] as const;
export type StoredFileKind = (typeof FILE_KIND_VALUES)[number];

/** `none`: not audio. `pending`: the peaks job has not run yet. `ready` / `failed`: it ran. */
export const PEAKS_STATUSES = ['none', 'pending', 'ready', 'failed'] as const;
export type PeaksStatus = (typeof PEAKS_STATUSES)[number];

/** Audio facts read from the file itself at registration. */
export type StoredAudioFacts = {
  durationSeconds: number;
  sampleRate: number;
  channels: number;
  bitsPerSample: number | null;
  bitrate: number | null;
  codec: string;
  container: string;
  lossless: boolean;
};

/** Waveform peaks: per bucket of equal duration, the lowest and highest sample of any channel. */
export type StoredPeaks = {
  format: string;
  sampleRate: number;
  durationSeconds: number;
  bucketCount: number;
  min: number[];
  max: number[];
};

/**
 * One id sequence for pending uploads and files: a pending upload's id is the id its file gets once
 * registered, so a resource created with an upload URL keeps one id through the whole flow.
 */
export const fileIds = pgSequence('file_ids', { startWith: 1 });

const nextFileId = sql`nextval('file_ids')`;

/**
 * Registered files. A row exists only while its blob does: deleting a row (directly or through a cascade)
 * queues its blob in blob_deletions, and a trigger keeps team_storage exact (see the files_triggers migration).
 */
export const files = pgTable(
  'files',
  {
    id: integer().primaryKey().default(nextFileId),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    kind: text().$type<StoredFileKind>().notNull(),
    key: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    contentType: text().notNull(),
    originalName: text().notNull(),
    /** What the file belongs to, e.g. `team_media` / team id, `team_banner` / team id. */
    ownerType: text().notNull(),
    ownerId: text().notNull(),
    audio: jsonb().$type<StoredAudioFacts>(),
    /** Why audio facts could not be read (`unsupported_format`, `undecodable`, ...). */
    audioFailureReason: text(),
    peaksStatus: text().$type<PeaksStatus>().notNull(),
    peaks: jsonb().$type<StoredPeaks>(),
    peaksFailureReason: text(),
    peaksFailureMessage: text(),
    /** Soft delete: the file is purged from this time on (until then it still counts towards the quota). */
    deleteAfter: timestamp({ withTimezone: true }),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('files_key_unique').on(t.key),
    index('files_team_owner_idx').on(t.teamId, t.ownerType, t.ownerId, t.id),
    index('files_team_kind_idx').on(t.teamId, t.kind),
    index('files_delete_after_idx').on(t.deleteAfter).where(sql`${t.deleteAfter} is not null`),
    check('files_kind_check', sql`${t.kind} in ('audio', 'image', 'video', 'document')`),
    check('files_peaks_status_check', sql`${t.peaksStatus} in ('none', 'pending', 'ready', 'failed')`),
    check('files_size_check', sql`${t.size} >= 0`),
  ],
);

/**
 * Upload URLs handed out and not registered yet. While open, each holds of the team's quota its declared
 * size, else the bytes it has received and is receiving (nothing before its first PUT). Deleting a row (registered, discarded, expired, cascade)
 * queues its pending blob, and its final blob unless a file took it, in blob_deletions.
 */
export const pendingUploads = pgTable(
  'pending_uploads',
  {
    id: integer().primaryKey().default(nextFileId),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    kind: text().$type<StoredFileKind>().notNull(),
    /** Where the client PUTs the bytes (the key field of upload-URL answers). */
    key: text().notNull(),
    /** Where registration moves the bytes. */
    finalKey: text().notNull(),
    fileName: text().notNull(),
    contentType: text().notNull(),
    /** The exact size the client announced, when it did. */
    declaredSize: bigint({ mode: 'number' }),
    maxBytes: bigint({ mode: 'number' }).notNull(),
    /** Without a declared size: the bytes stored for it by its last complete PUT (held of the quota). */
    receivedBytes: bigint({ mode: 'number' }).notNull().default(0),
    /**
     * Without a declared size: what PUTs being received right now have claimed of the quota, ahead of the
     * bytes they write; handed back when they end.
     */
    receivingBytes: bigint({ mode: 'number' }).notNull().default(0),
    ownerType: text().notNull(),
    ownerId: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /**
     * Set when a registration claims the upload: from then on the upload URL takes no more bytes, so what
     * registration inspects is what it records. Cleared again when the bytes are refused, to allow a retry.
     */
    closedAt: timestamp({ withTimezone: true }),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pending_uploads_key_unique').on(t.key),
    uniqueIndex('pending_uploads_final_key_unique').on(t.finalKey),
    index('pending_uploads_team_owner_idx').on(t.teamId, t.ownerType, t.ownerId),
    index('pending_uploads_expires_at_idx').on(t.expiresAt),
  ],
);

/** Bytes and files each team stores, maintained by triggers on files; the quota is checked against it. */
export const teamStorage = pgTable(
  'team_storage',
  {
    teamId: integer()
      .primaryKey()
      .references(() => teams.id, { onDelete: 'cascade' }),
    usedBytes: bigint({ mode: 'number' }).notNull().default(0),
    fileCount: integer().notNull().default(0),
  },
  (t) => [
    check('team_storage_used_bytes_check', sql`${t.usedBytes} >= 0`),
    check('team_storage_file_count_check', sql`${t.fileCount} >= 0`),
  ],
);

/** Blobs whose rows are gone, waiting to be removed from the store (drained right away and by a job). */
export const blobDeletions = pgTable('blob_deletions', {
  id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  key: text().notNull(),
  attempts: integer().notNull().default(0),
  lastError: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
