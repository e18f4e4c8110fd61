import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  albumTracks,
  files,
  musicToolRuns,
  tracks,
  trackVersions,
  versionStems,
} from '../../../db/schema/index.ts';
import type { FileRow } from '../../files/files.repository.ts';
import { VERSION_FILE_OWNER } from '../../tracks/version-audio.ts';
import { VERSION_AUDIO_OWNER } from '../../tracks/versions/versions.repository.ts';
import type { GuestLink } from './way-ins.repository.ts';

/** The formats of the music tools' `convert` whose output a link may hand out as a lossy preview. */
const LOSSY_PREVIEW_FORMATS = ['mp3', 'aac'];

const trackColumns = {
  id: tracks.id,
  title: tracks.title,
  artist: tracks.artist,
  genre: tracks.genre,
  language: tracks.language,
  releaseDate: tracks.releaseDate,
  bpm: tracks.bpm,
  musicalKey: tracks.musicalKey,
  explicit: tracks.explicit,
};
const versionColumns = {
  id: trackVersions.id,
  trackId: trackVersions.trackId,
  name: trackVersions.name,
  durationSeconds: trackVersions.durationSeconds,
};
const stemColumns = {
  id: versionStems.id,
  versionId: versionStems.versionId,
  name: versionStems.name,
  instrument: versionStems.instrument,
  fileId: versionStems.fileId,
  restricted: versionStems.restricted,
  downloadableBy: versionStems.downloadableBy,
};

export type ItemTrack = { [K in keyof typeof trackColumns]: (typeof tracks.$inferSelect)[K] };
export type ItemVersion = { id: number; trackId: number; name: string; durationSeconds: number | null };
export type ItemStem = { [K in keyof typeof stemColumns]: (typeof versionStems.$inferSelect)[K] } & {
  file: FileRow | undefined;
};

/** One entry of what a link shows: a track, the version shown, its audio, its lossy preview and the stems. */
export type LinkItem = {
  track: ItemTrack;
  version: ItemVersion;
  audio: FileRow | undefined;
  preview: FileRow | undefined;
  stems: ItemStem[];
};

/** What a link shows now; `gone` when its target is (track deleted, or a playlist without a live track). */
export type LinkContent = { gone: boolean; items: LinkItem[] };

/** The live tracks the link's target names, in its order (album order, playlist order). */
async function targetTrackIds(db: Db, link: GuestLink): Promise<number[]> {
  switch (link.targetType) {
    case 'track':
    case 'version':
      return link.trackId === null ? [] : [link.trackId];
    case 'album': {
      if (link.albumId === null) return [];
      const rows = await db
        .select({ trackId: albumTracks.trackId })
        .from(albumTracks)
        .where(eq(albumTracks.albumId, link.albumId))
        .orderBy(asc(albumTracks.position), asc(albumTracks.trackId));
      return rows.map((r) => r.trackId);
    }
    case 'playlist':
      return link.trackIds;
  }
}

/** The version each track shows: the one a version link names, else the final one, else the newest. */
async function versionsOf(db: Db, link: GuestLink, trackIds: number[]): Promise<ItemVersion[]> {
  if (link.targetType === 'version') {
    if (link.versionId === null) return [];
    return db
      .select(versionColumns)
      .from(trackVersions)
      .where(and(eq(trackVersions.id, link.versionId), inArray(trackVersions.trackId, trackIds)));
  }
  return (
    db
      .selectDistinctOn([trackVersions.trackId], versionColumns)
      .from(trackVersions)
      .where(inArray(trackVersions.trackId, trackIds))
      // Ids grow with creation: the highest is the newest version.
      .orderBy(trackVersions.trackId, desc(trackVersions.isFinal), desc(trackVersions.id))
  );
}

/** Live files of `ownerType` of these versions, newest first. */
function filesOfVersions(db: Db, teamId: number, ownerType: string, versionIds: number[]) {
  return db
    .select()
    .from(files)
    .where(
      and(
        eq(files.teamId, teamId),
        eq(files.ownerType, ownerType),
        inArray(files.ownerId, versionIds.map(String)),
        isNull(files.deleteAfter),
      ),
    )
    .orderBy(desc(files.id));
}

/** The lossy previews the music tools converted from these versions, newest first. */
function previewsOf(db: Db, teamId: number, versionIds: number[]) {
  return db
    .select({ file: files })
    .from(musicToolRuns)
    .innerJoin(files, sql`${files.id} = (${musicToolRuns.result} ->> 'fileId')::int`)
    .where(
      and(
        eq(musicToolRuns.teamId, teamId),
        inArray(musicToolRuns.versionId, versionIds),
        eq(musicToolRuns.operation, 'convert'),
        eq(musicToolRuns.status, 'succeeded'),
        inArray(sql`${musicToolRuns.parameters} ->> 'format'`, LOSSY_PREVIEW_FORMATS),
        eq(files.teamId, teamId),
        eq(files.ownerType, VERSION_FILE_OWNER),
        isNull(files.deleteAfter),
      ),
    )
    .orderBy(desc(files.id));
}

/** The first row per key (rows come newest first). */
function firstBy<T>(rows: T[], keyOf: (row: T) => string | number) {
  const byKey = new Map<string | number, T>();
  for (const row of rows) if (!byKey.has(keyOf(row))) byKey.set(keyOf(row), row);
  return byKey;
}

/**
 * What a link shows now, read afresh (new versions are followed, deleted tracks left out): a handful of
 * queries whatever the number of tracks.
 */
export async function linkContent(db: Db, link: GuestLink): Promise<LinkContent> {
  const wanted = await targetTrackIds(db, link);
  const live =
    wanted.length === 0
      ? []
      : await db
          .select(trackColumns)
          .from(tracks)
          .where(and(inArray(tracks.id, wanted), eq(tracks.teamId, link.teamId), isNull(tracks.deletedAt)));
  const byId = new Map(live.map((t) => [t.id, t]));
  const ordered = wanted.flatMap((id) => byId.get(id) ?? []);
  // An album stays while it exists, even empty; the other targets go with their last live track.
  const gone = link.targetType !== 'album' && ordered.length === 0;
  if (ordered.length === 0) return { gone, items: [] };
  const versions = await versionsOf(
    db,
    link,
    ordered.map((t) => t.id),
  );
  if (link.targetType === 'version' && versions.length === 0) return { gone: true, items: [] };
  const versionIds = versions.map((v) => v.id);
  const [audio, previews, stems] = await Promise.all([
    filesOfVersions(db, link.teamId, VERSION_AUDIO_OWNER, versionIds),
    previewsOf(db, link.teamId, versionIds),
    link.allowStems.length === 0
      ? []
      : db
          .select(stemColumns)
          .from(versionStems)
          .where(and(inArray(versionStems.versionId, versionIds), inArray(versionStems.id, link.allowStems)))
          .orderBy(asc(versionStems.position), asc(versionStems.id)),
  ]);
  const stemFileIds = stems.flatMap((s) => (s.fileId === null ? [] : [s.fileId]));
  const stemFiles =
    stemFileIds.length === 0
      ? []
      : await db
          .select()
          .from(files)
          .where(
            and(eq(files.teamId, link.teamId), inArray(files.id, stemFileIds), isNull(files.deleteAfter)),
          );
  const audioOf = firstBy(audio, (f) => f.ownerId);
  const previewOf = firstBy(
    previews.map((p) => p.file),
    (f) => f.ownerId,
  );
  const stemFileOf = new Map(stemFiles.map((f) => [f.id, f]));
  const versionOf = new Map(versions.map((v) => [v.trackId, v]));
  const items = ordered.flatMap((track): LinkItem[] => {
    const version = versionOf.get(track.id);
    if (!version) return [];
    return [
      {
        track,
        version,
        audio: audioOf.get(String(version.id)),
        preview: previewOf.get(String(version.id)),
        stems: stems
          .filter((s) => s.versionId === version.id)
          .map((s) => ({ ...s, file: s.fileId === null ? undefined : stemFileOf.get(s.fileId) })),
      },
    ];
  });
  return { gone, items };
}
