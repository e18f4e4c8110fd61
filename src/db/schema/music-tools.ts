import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdBy, stamp } from './columns.ts';
import { teams } from './teams.ts';
import { tracks, trackVersions } from './tracks.ts';

export const MUSIC_TOOL_OPERATIONS = ['analyze', 'normalize', 'convert', 'trim', 'split'] as const;
export type MusicToolOperation = (typeof MUSIC_TOOL_OPERATIONS)[number];
export const MUSIC_TOOL_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type MusicToolStatus = (typeof MUSIC_TOOL_STATUSES)[number];

/** Why a run failed, as its answer shows it. */
export type MusicToolError = { code: string; message: string };

/**
 * One music-tool request on a version (analyze, normalize, convert, trim, split) and its outcome; the
 * audio work itself runs in a queued job that reads and finishes this row, so runs survive a restart.
 */
export const musicToolRuns = pgTable(
  'music_tool_runs',
  {
    id: uuid().primaryKey(),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    trackId: integer()
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    versionId: integer()
      .notNull()
      .references(() => trackVersions.id, { onDelete: 'cascade' }),
    operation: text().$type<MusicToolOperation>().notNull(),
    parameters: jsonb().$type<Record<string, unknown>>().notNull(),
    status: text().$type<MusicToolStatus>().notNull().default('queued'),
    result: jsonb().$type<Record<string, unknown>>(),
    error: jsonb().$type<MusicToolError>(),
    ...createdBy(),
    createdAt: stamp().notNull().defaultNow(),
    startedAt: stamp(),
    finishedAt: stamp(),
    updatedAt: stamp().notNull().defaultNow(),
  },
  (t) => [
    index('music_tool_runs_version_idx').on(t.versionId, t.createdAt),
    // A team's unfinished runs: counted against its limit, and searched for the same request.
    index('music_tool_runs_pending_idx')
      .on(t.teamId, t.versionId)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/** What `analyze` stores on a version. */
export type StoredVersionAnalysis = {
  loudness: { integratedLufs: number | null; loudnessRangeLu: number | null; truePeakDbtp: number | null };
  tempoBpm: number | null;
  key: { tonic: string; mode: 'major' | 'minor'; name: string; confidence: number } | null;
  durationSeconds: number | null;
  /** Seconds from the start tempo and key were computed on (absent in analyses made before it was stated). */
  analysedSeconds?: number;
};

/** The latest `analyze` result of a version (loudness, tempo, key), shown in its detail. */
export const versionAnalyses = pgTable('version_analyses', {
  versionId: integer()
    .primaryKey()
    .references(() => trackVersions.id, { onDelete: 'cascade' }),
  runId: uuid().notNull(),
  analysis: jsonb().$type<StoredVersionAnalysis>().notNull(),
  analysedAt: stamp().notNull(),
});
