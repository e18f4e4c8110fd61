import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { albums, albumTracks, trackCollaborators, tracks, trackTeams } from '../../db/schema/index.ts';
import { positionsInOrder } from '../../shared/positions.ts';
import { updateAlbum } from './albums.repository.ts';

/**
 * Which of `trackIds` the team holds (owns or has been shared) and are not deleted; they stay locked against
 * deletion until the transaction ends, so the links about to be written never point at a vanished track.
 */
export async function lockHeldTracks(db: Db, teamId: number, trackIds: number[]): Promise<Set<number>> {
  const rows = await db
    .select({ id: tracks.id })
    .from(tracks)
    .innerJoin(trackTeams, and(eq(trackTeams.trackId, tracks.id), eq(trackTeams.teamId, teamId)))
    .where(and(inArray(tracks.id, trackIds), isNull(tracks.deletedAt)))
    .for('key share', { of: tracks });
  return new Set(rows.map((r) => r.id));
}

/**
 * The album's entries in album order, with whether each track is live (soft-deleted tracks are hidden but
 * keep their place), locked so that a track deleted meanwhile cannot take its entry away mid-change.
 */
export async function lockEntries(db: Db, albumId: number) {
  return db
    .select({
      trackId: albumTracks.trackId,
      position: albumTracks.position,
      live: sql<boolean>`${tracks.deletedAt} is null`,
    })
    .from(albumTracks)
    .innerJoin(tracks, eq(tracks.id, albumTracks.trackId))
    .where(eq(albumTracks.albumId, albumId))
    .orderBy(asc(albumTracks.position), asc(albumTracks.trackId))
    .for('update', { of: albumTracks });
}

/** Appends tracks to the album from position `start` on, in the order given. */
export async function appendTracks(
  db: Db,
  albumId: number,
  start: number,
  trackIds: number[],
  addedBy: string | null,
  now: Date,
): Promise<void> {
  await db
    .insert(albumTracks)
    .values(trackIds.map((trackId, i) => ({ albumId, trackId, position: start + i, addedBy, addedAt: now })));
}

/** Takes a track off the album and closes the gap it leaves; false when it was not on the album. */
export async function removeTrack(db: Db, albumId: number, trackId: number): Promise<boolean> {
  const [removed] = await db
    .delete(albumTracks)
    .where(and(eq(albumTracks.albumId, albumId), eq(albumTracks.trackId, trackId)))
    .returning({ position: albumTracks.position });
  if (!removed) return false;
  await db
    .update(albumTracks)
    .set({ position: sql`${albumTracks.position} - 1` })
    .where(and(eq(albumTracks.albumId, albumId), gt(albumTracks.position, removed.position)));
  return true;
}

/** Gives the album's tracks positions 0..n-1 in the order listed. */
export async function setTrackPositions(db: Db, albumId: number, ordered: number[]): Promise<void> {
  if (ordered.length === 0) return;
  await db
    .update(albumTracks)
    .set({ position: positionsInOrder(albumTracks.trackId, ordered) })
    .where(and(eq(albumTracks.albumId, albumId), inArray(albumTracks.trackId, ordered)));
}

/** The collaborators of the album's live tracks, in album order. */
export async function listCollaboratorsOfAlbum(db: Db, albumId: number) {
  return db
    .select({
      id: trackCollaborators.id,
      trackId: trackCollaborators.trackId,
      name: trackCollaborators.name,
      userId: trackCollaborators.userId,
      email: trackCollaborators.email,
      roles: trackCollaborators.roles,
    })
    .from(albumTracks)
    .innerJoin(tracks, eq(tracks.id, albumTracks.trackId))
    .innerJoin(trackCollaborators, eq(trackCollaborators.trackId, albumTracks.trackId))
    .where(and(eq(albumTracks.albumId, albumId), isNull(tracks.deletedAt)))
    .orderBy(asc(albumTracks.position), asc(trackCollaborators.id));
}

/**
 * Takes a track off every album of the team (closing the gaps, the albums counting as updated): a team that
 * no longer holds a track must not keep showing it. Answers the ids of the albums changed.
 */
export async function takeTrackOffTeamAlbums(db: Db, teamId: number, trackId: number, now: Date) {
  const rows = await db
    .select({ albumId: albumTracks.albumId })
    .from(albumTracks)
    .innerJoin(albums, eq(albums.id, albumTracks.albumId))
    .where(and(eq(albums.teamId, teamId), eq(albumTracks.trackId, trackId)))
    .orderBy(asc(albumTracks.albumId))
    .for('update', { of: albumTracks });
  const albumIds = rows.map((r) => r.albumId);
  for (const albumId of albumIds) {
    await removeTrack(db, albumId, trackId);
    await updateAlbum(db, albumId, {}, now);
  }
  return albumIds;
}
