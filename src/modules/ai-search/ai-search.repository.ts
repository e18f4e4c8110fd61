import { type AnyColumn, and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { albums, type StatusConfig, teams, tracks, trackTeams } from '../../db/schema/index.ts';
import { filterConditions } from './filter-conditions.ts';
import type { Filters } from './interpretation.ts';

/** A position in a list ordered by last update, newest first: [updatedAt ISO, id]. */
export type After = [string, number];
export type Page = { limit: number; after: After | undefined };

/** The statuses of a team's track or album board. */
export async function teamStatuses(db: Db, teamId: number, board: keyof StatusConfig) {
  const [team] = await db
    .select({ statusConfig: teams.statusConfig })
    .from(teams)
    .where(eq(teams.id, teamId))
    .limit(1);
  return team?.statusConfig[board] ?? [];
}

function keyset(updatedAt: AnyColumn, id: AnyColumn, after: After | undefined) {
  return after ? sql`(${updatedAt}, ${id}) < (${after[0]}::timestamptz, ${after[1]})` : undefined;
}

/** Live tracks the team holds (its own and those shared with it) that satisfy the filters; `limit + 1` rows. */
export async function findTracks(db: Db, teamId: number, filters: Filters, page: Page) {
  const held = sql`exists (select 1 from ${trackTeams} where ${trackTeams.trackId} = ${sql.raw('"tracks"."id"')} and ${trackTeams.teamId} = ${teamId})`;
  const where = filterConditions(filters, {
    lists: {
      genres: tracks.genre,
      languages: tracks.language,
      labels: tracks.label,
      distributors: tracks.distributor,
    },
    tags: tracks.tags,
    statusId: tracks.statusId,
    releaseDate: tracks.releaseDate,
    bpm: tracks.bpm,
    text: [tracks.title, tracks.artist],
  });
  return db
    .select({
      id: tracks.id,
      teamId: tracks.teamId,
      title: tracks.title,
      artist: tracks.artist,
      genre: tracks.genre,
      language: tracks.language,
      tags: tracks.tags,
      label: tracks.label,
      distributor: tracks.distributor,
      bpm: tracks.bpm,
      releaseDate: tracks.releaseDate,
      statusId: tracks.statusId,
      updatedAt: tracks.updatedAt,
    })
    .from(tracks)
    .where(and(isNull(tracks.deletedAt), held, where, keyset(tracks.updatedAt, tracks.id, page.after)))
    .orderBy(desc(tracks.updatedAt), desc(tracks.id))
    .limit(page.limit + 1);
}

/** The team's albums that satisfy the filters; `limit + 1` rows. */
export async function findAlbums(db: Db, teamId: number, filters: Filters, page: Page) {
  const where = filterConditions(filters, {
    lists: {
      artists: albums.artist,
      genres: albums.genre,
      languages: albums.language,
      labels: albums.label,
    },
    tags: albums.tags,
    statusId: albums.statusId,
    type: albums.type,
    releaseDate: albums.releaseDate,
    text: [albums.title, albums.artist],
  });
  return db
    .select({
      id: albums.id,
      teamId: albums.teamId,
      title: albums.title,
      artist: albums.artist,
      type: albums.type,
      genre: albums.genre,
      language: albums.language,
      tags: albums.tags,
      label: albums.label,
      releaseDate: albums.releaseDate,
      statusId: albums.statusId,
      updatedAt: albums.updatedAt,
    })
    .from(albums)
    .where(and(eq(albums.teamId, teamId), where, keyset(albums.updatedAt, albums.id, page.after)))
    .orderBy(desc(albums.updatedAt), desc(albums.id))
    .limit(page.limit + 1);
}
