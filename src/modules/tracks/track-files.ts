import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { versionComments } from '../../db/schema/index.ts';
import type { FileOwner, FilesService } from '../files/files.service.ts';
import { versionIdsOf } from './tracks.repository.ts';
import { VERSION_FILE_OWNER, VERSION_STEM_OWNER } from './version-audio.ts';
import { VERSION_AUDIO_OWNER } from './versions/versions.repository.ts';

/** The owner types of every file the tracks area keeps, with what their owner id names. */
export const TRACK_FILE_OWNERS = {
  /** A cover image of a track (owner id: the track). */
  cover: 'track_cover',
  /** Any other file of a track: video, artwork, documents, audio (owner id: the track). */
  media: 'track_media',
  /** The audio of a version (owner id: the version). */
  versionAudio: VERSION_AUDIO_OWNER,
  /** A stem of a version (owner id: the version). */
  stem: VERSION_STEM_OWNER,
  /** An additional file of a version (owner id: the version). */
  versionFile: VERSION_FILE_OWNER,
  /** An upload for a comment not written yet; only pending uploads have it (owner id: the version). */
  commentUpload: 'comment_upload',
  /** A file attached to a comment (owner id: the comment). */
  commentAttachment: 'comment_attachment',
} as const;

const O = TRACK_FILE_OWNERS;

/** Owner types by what their owner id is. */
export const TRACK_OWNED = [O.cover, O.media] as const;
export const VERSION_OWNED = [O.versionAudio, O.stem, O.versionFile] as const;

export const coverOwner = (trackId: number): FileOwner => ({ type: O.cover, id: trackId });
export const trackMediaOwner = (trackId: number): FileOwner => ({ type: O.media, id: trackId });
export const commentUploadOwner = (versionId: number): FileOwner => ({
  type: O.commentUpload,
  id: versionId,
});
export const attachmentOwner = (commentId: number): FileOwner => ({
  type: O.commentAttachment,
  id: commentId,
});

type Deleter = Pick<FilesService, 'deleteOfOwners'>;

async function commentIdsOf(db: Db, versionIds: number[]): Promise<number[]> {
  if (versionIds.length === 0) return [];
  const rows = await db
    .select({ id: versionComments.id })
    .from(versionComments)
    .where(inArray(versionComments.versionId, versionIds));
  return rows.map((r) => r.id);
}

/** The owners of every file of these versions: their own files, comment uploads and comments' attachments. */
async function versionOwnerSets(db: Db, versionIds: number[]) {
  const commentIds = await commentIdsOf(db, versionIds);
  return [
    ...VERSION_OWNED.map((type) => ({ type, ids: versionIds })),
    { type: O.commentUpload, ids: versionIds },
    { type: O.commentAttachment, ids: commentIds },
  ];
}

/**
 * Deletes every file of these versions (audio, stems, additional files, comment attachments) in `tx`, in
 * one statement; run it before the rows go, since comments are needed to find their attachments.
 */
export async function deleteFilesOfVersions(files: Deleter, tx: Db, teamId: number, versionIds: number[]) {
  return files.deleteOfOwners(teamId, await versionOwnerSets(tx, versionIds), { tx });
}

/** Deletes every file of a track (covers, media and all its versions' files) in `tx`: hard delete, purge. */
export async function deleteTrackFiles(files: Deleter, tx: Db, teamId: number, trackId: number) {
  const owners = [
    ...TRACK_OWNED.map((type) => ({ type, ids: [trackId] })),
    ...(await versionOwnerSets(tx, await versionIdsOf(tx, trackId))),
  ];
  return files.deleteOfOwners(teamId, owners, { tx });
}
