import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { files, tracks } from '../../../db/schema/index.ts';
import { TRACK_FILE_OWNERS } from '../track-files.ts';

/**
 * A registered cover of the track, locked until the transaction ends so it cannot be deleted while it is
 * being made current; undefined when the track has no such cover (any more).
 */
export async function lockCoverFile(db: Db, teamId: number, trackId: number, coverId: number) {
  const [row] = await db
    .select()
    .from(files)
    .where(
      and(
        eq(files.teamId, teamId),
        eq(files.id, coverId),
        eq(files.ownerType, TRACK_FILE_OWNERS.cover),
        eq(files.ownerId, String(trackId)),
      ),
    )
    .for('share');
  return row;
}

export async function setCurrentCover(db: Db, trackId: number, coverId: number, now: Date): Promise<void> {
  await db.update(tracks).set({ coverFileId: coverId, updatedAt: now }).where(eq(tracks.id, trackId));
}

/** Makes the cover current when the track has none; whether it did. */
export async function setCoverIfNone(db: Db, trackId: number, coverId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(tracks)
    .set({ coverFileId: coverId, updatedAt: now })
    .where(and(eq(tracks.id, trackId), isNull(tracks.coverFileId)))
    .returning({ id: tracks.id });
  return rows.length > 0;
}

export async function currentCoverId(db: Db, trackId: number): Promise<number | null> {
  const [row] = await db
    .select({ coverFileId: tracks.coverFileId })
    .from(tracks)
    .where(eq(tracks.id, trackId))
    .limit(1);
  return row?.coverFileId ?? null;
}
