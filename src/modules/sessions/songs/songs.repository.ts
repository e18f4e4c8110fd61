import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { sessionSongs as songs, tracks, trackTeams } from '../../../db/schema/index.ts';

export type SongKey = [addedAt: string, trackId: number];

const songView = {
  sessionId: songs.sessionId,
  trackId: songs.trackId,
  title: tracks.title,
  artist: tracks.artist,
  statusId: tracks.statusId,
  addedBy: songs.addedBy,
  addedAt: songs.addedAt,
};

/**
 * The session's songs the team still holds (not deleted, not unshared), in the order they were added;
 * `only` narrows it to one track.
 */
export function listSongs(
  db: Db,
  session: { id: number; teamId: number },
  page: { after?: SongKey | undefined; limit: number; only?: number },
) {
  return db
    .select(songView)
    .from(songs)
    .innerJoin(tracks, eq(tracks.id, songs.trackId))
    .innerJoin(trackTeams, and(eq(trackTeams.trackId, songs.trackId), eq(trackTeams.teamId, session.teamId)))
    .where(
      and(
        eq(songs.sessionId, session.id),
        isNull(tracks.deletedAt),
        page.only === undefined ? undefined : eq(songs.trackId, page.only),
        page.after
          ? sql`(${songs.addedAt}, ${songs.trackId}) > (${page.after[0]}::timestamptz, ${page.after[1]}::integer)`
          : undefined,
      ),
    )
    .orderBy(songs.addedAt, songs.trackId)
    .limit(page.limit);
}

/** Links the track to the session; false when it was linked already. */
export async function insertSong(
  db: Db,
  song: { sessionId: number; trackId: number; addedBy: string; addedAt: Date },
): Promise<boolean> {
  const rows = await db.insert(songs).values(song).onConflictDoNothing().returning({ id: songs.trackId });
  return rows.length > 0;
}

export async function deleteSong(db: Db, sessionId: number, trackId: number): Promise<boolean> {
  const rows = await db
    .delete(songs)
    .where(and(eq(songs.sessionId, sessionId), eq(songs.trackId, trackId)))
    .returning({ id: songs.trackId });
  return rows.length > 0;
}
