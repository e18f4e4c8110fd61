import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  albums,
  albumTracks,
  type ShareTargetType,
  tracks,
  trackVersions,
  versionStems,
} from '../../db/schema/index.ts';
import { errors } from '../../shared/errors.ts';

/** What a request names as a link's target: exactly one of these. */
export type TargetInput =
  | { trackId: number }
  | { versionId: number }
  | { albumId: number }
  | { trackIds: number[] };

/** The target columns of a `share_links` row. */
export type TargetColumns = {
  targetType: ShareTargetType;
  trackId: number | null;
  versionId: number | null;
  albumId: number | null;
  trackIds: number[];
};

/** A target found live and owned by the team: its columns and how a mail names it. */
export type ResolvedTarget = { columns: TargetColumns; phrase: string };

const none = { trackId: null, versionId: null, albumId: null, trackIds: [] as number[] };

/**
 * Finds what a new link shows. Every track, version and album must belong to `teamId` (not merely be shared
 * with it) and be live; the first one that is not is 404, named.
 */
export async function resolveTarget(db: Db, teamId: number, input: TargetInput): Promise<ResolvedTarget> {
  if ('trackId' in input) {
    const track = await ownTrack(db, teamId, input.trackId);
    return {
      columns: { ...none, targetType: 'track', trackId: track.id },
      phrase: `the track "${track.title}"`,
    };
  }
  if ('versionId' in input) {
    const [version] = await db
      .select({ id: trackVersions.id, name: trackVersions.name, trackId: tracks.id, title: tracks.title })
      .from(trackVersions)
      .innerJoin(tracks, eq(tracks.id, trackVersions.trackId))
      .where(and(eq(trackVersions.id, input.versionId), liveOf(teamId)));
    if (!version) throw errors.notFound(`version ${input.versionId}`);
    return {
      columns: { ...none, targetType: 'version', trackId: version.trackId, versionId: version.id },
      phrase: `the version "${version.name}" of "${version.title}"`,
    };
  }
  if ('albumId' in input) {
    const [album] = await db
      .select({ id: albums.id, title: albums.title })
      .from(albums)
      .where(and(eq(albums.id, input.albumId), eq(albums.teamId, teamId)));
    if (!album) throw errors.notFound(`album ${input.albumId}`);
    return {
      columns: { ...none, targetType: 'album', albumId: album.id },
      phrase: `the album "${album.title}"`,
    };
  }
  const found = await db
    .select({ id: tracks.id, title: tracks.title })
    .from(tracks)
    .where(and(inArray(tracks.id, input.trackIds), liveOf(teamId)));
  const live = new Map(found.map((track) => [track.id, track.title]));
  const missing = input.trackIds.find((id) => !live.has(id));
  if (missing !== undefined) throw errors.notFound(`track ${missing}`);
  const phrase =
    input.trackIds.length === 1
      ? `the track "${live.get(input.trackIds[0]!)}"`
      : `a playlist of ${input.trackIds.length} tracks`;
  return { columns: { ...none, targetType: 'playlist', trackIds: input.trackIds }, phrase };
}

const liveOf = (teamId: number) => and(eq(tracks.teamId, teamId), sql`${tracks.deletedAt} is null`);

async function ownTrack(db: Db, teamId: number, trackId: number) {
  const [track] = await db
    .select({ id: tracks.id, title: tracks.title })
    .from(tracks)
    .where(and(eq(tracks.id, trackId), liveOf(teamId)));
  if (!track) throw errors.notFound(`track ${trackId}`);
  return track;
}

const albumTrackIds = (albumId: number) => sql`(select ${albumTracks.trackId} from ${albumTracks}
  where ${albumTracks.albumId} = ${albumId})`;

/** SQL: the version (a `track_versions` row) is one the target shows. */
function holdsVersion(target: TargetColumns): SQL {
  switch (target.targetType) {
    case 'track':
      return eq(trackVersions.trackId, target.trackId!);
    case 'version':
      return eq(trackVersions.id, target.versionId!);
    case 'album':
      return inArray(trackVersions.trackId, albumTrackIds(target.albumId!));
    case 'playlist':
      return inArray(trackVersions.trackId, target.trackIds);
  }
}

/**
 * Refuses (400) stem ids that are not stems of a version the target shows: a link shows only stems of its
 * own versions.
 */
export async function checkAllowedStems(
  db: Db,
  target: TargetColumns,
  stemIds: readonly number[],
): Promise<void> {
  if (stemIds.length === 0) return;
  const found = await db
    .select({ id: versionStems.id })
    .from(versionStems)
    .innerJoin(trackVersions, eq(trackVersions.id, versionStems.versionId))
    .where(and(inArray(versionStems.id, [...stemIds]), holdsVersion(target)));
  const held = new Set(found.map((stem) => stem.id));
  const details = stemIds
    .map((id, i) => ({ id, i }))
    .filter(({ id }) => !held.has(id))
    .map(({ id, i }) => ({
      path: `/body/allowStems/${i}`,
      message: `stem ${id} is not a stem of a version this link shows`,
    }));
  if (details.length > 0) throw errors.validation(details);
}

/** How a mail names an existing link's target (whatever has become of it since). */
export async function targetPhrase(db: Db, target: TargetColumns): Promise<string> {
  if (target.targetType === 'album') {
    const [album] = await db
      .select({ title: albums.title })
      .from(albums)
      .where(eq(albums.id, target.albumId!));
    return album ? `the album "${album.title}"` : 'an album';
  }
  if (target.targetType === 'playlist' && target.trackIds.length > 1)
    return `a playlist of ${target.trackIds.length} tracks`;
  const trackId = target.trackId ?? target.trackIds[0]!;
  const [track] = await db.select({ title: tracks.title }).from(tracks).where(eq(tracks.id, trackId));
  if (target.targetType !== 'version') return track ? `the track "${track.title}"` : 'a track';
  const [version] = await db
    .select({ name: trackVersions.name })
    .from(trackVersions)
    .where(eq(trackVersions.id, target.versionId!));
  return version && track ? `the version "${version.name}" of "${track.title}"` : 'a version of a track';
}
