import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { files, trackVersions, versionComments } from '../../../db/schema/index.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { pageOfList } from '../../../shared/pagination.ts';
import { fileLinks } from '../../files/file-view.ts';
import type { FileRow } from '../../files/files.repository.ts';
import type { FilesService } from '../../files/files.service.ts';
import { stemAudioMark } from '../stems/stem-audio-marks.ts';
import { mayDownloadStem, type StemViewer, stemViewerOf } from '../stems/stem-rights.ts';
import { rightsOfStemFiles } from '../stems/stems.repository.ts';
import { requireTrack } from '../track-access.ts';
import { TRACK_FILE_OWNERS as O, TRACK_OWNED, VERSION_OWNED } from '../track-files.ts';

/** What each owner type's files are to the track, in the order the list shows them within their level. */
export const ASSET_ROLES = {
  [O.cover]: 'cover',
  [O.media]: 'media',
  [O.versionAudio]: 'version_audio',
  [O.stem]: 'stem',
  [O.versionFile]: 'version_file',
  [O.commentAttachment]: 'comment_attachment',
} as const;

export type AssetRole = (typeof ASSET_ROLES)[keyof typeof ASSET_ROLES];

type AssetRow = {
  file: FileRow;
  versionId: number | null;
  versionPosition: number | null;
  commentId: number | null;
};

// Owner ids are text: compare them with the integer id as text, so the files index still serves the lookup.
const asText = (column: typeof trackVersions.id | typeof versionComments.id) =>
  sql`${column}::text` as SQL<string>;

/** Files owned by the track itself: covers and media. */
function trackLevelFiles(db: Db, teamId: number, trackId: number) {
  return db
    .select({ file: files })
    .from(files)
    .where(
      and(
        eq(files.teamId, teamId),
        inArray(files.ownerType, [...TRACK_OWNED]),
        eq(files.ownerId, String(trackId)),
      ),
    );
}

/** Files owned by the track's versions: audio, stems and additional files. */
function versionLevelFiles(db: Db, teamId: number, trackId: number) {
  return db
    .select({ file: files, versionId: trackVersions.id, versionPosition: trackVersions.position })
    .from(trackVersions)
    .innerJoin(
      files,
      and(
        eq(files.teamId, teamId),
        inArray(files.ownerType, [...VERSION_OWNED]),
        eq(files.ownerId, asText(trackVersions.id)),
      ),
    )
    .where(eq(trackVersions.trackId, trackId));
}

/** Attachments of the comments on the track's versions. */
function commentLevelFiles(db: Db, teamId: number, trackId: number) {
  return db
    .select({
      file: files,
      versionId: trackVersions.id,
      versionPosition: trackVersions.position,
      commentId: versionComments.id,
    })
    .from(trackVersions)
    .innerJoin(versionComments, eq(versionComments.versionId, trackVersions.id))
    .innerJoin(
      files,
      and(
        eq(files.teamId, teamId),
        eq(files.ownerType, O.commentAttachment),
        eq(files.ownerId, asText(versionComments.id)),
      ),
    )
    .where(eq(trackVersions.trackId, trackId));
}

const roleOrder = Object.keys(ASSET_ROLES);

/** Track-level files first, then each version's in version order; by role, then oldest first. */
const byPlace = {
  key: (r: AssetRow): number[] => [
    r.versionId === null ? 0 : 1,
    r.versionPosition ?? 0,
    r.versionId ?? 0,
    roleOrder.indexOf(r.file.ownerType),
    r.file.id,
  ],
  shape: ['number', 'number', 'number', 'number', 'number'] as const,
};

/**
 * Every registered file of a track with signed URLs: covers, media, each version's audio, stems and
 * additional files, and the attachments of its comments. Three queries, whatever the number of versions.
 */
export class TrackAssetsService {
  constructor(
    private readonly db: Db,
    private readonly files: FilesService,
  ) {}

  async list(principal: Principal, trackId: number, page: { limit: number; cursor?: string | undefined }) {
    const access = await requireTrack(this.db, principal, trackId);
    const { track } = access;
    const [own, ofVersions, ofComments] = await Promise.all([
      trackLevelFiles(this.db, track.teamId, trackId),
      versionLevelFiles(this.db, track.teamId, trackId),
      commentLevelFiles(this.db, track.teamId, trackId),
    ]);
    const stems = await this.stemFilesShown(
      ofVersions.map((r) => r.file),
      stemViewerOf(principal, access),
    );
    const rows: AssetRow[] = [
      ...own.map(({ file }) => ({ file, versionId: null, versionPosition: null, commentId: null })),
      ...ofVersions.filter((r) => stems.shown(r.file)).map((r) => ({ ...r, commentId: null })),
      ...ofComments,
    ];
    const { items: shown, nextCursor } = pageOfList(rows, page, byPlace);
    const items = await Promise.all(
      shown.map(async ({ file, versionId, commentId }) => ({
        fileId: file.id,
        role: ASSET_ROLES[file.ownerType as keyof typeof ASSET_ROLES],
        versionId,
        commentId,
        fileName: file.originalName,
        contentType: file.contentType,
        size: file.size,
        createdAt: file.createdAt,
        ...(await fileLinks(this.files, file, stems.guardOf(file))),
      })),
    );
    return { items, nextCursor };
  }

  /**
   * Which of a version's files may be listed for `viewer` (stems whose audio the viewer may not fetch are not),
   * and the guard mark a stem's links carry, so a later restriction ends them at once.
   */
  private async stemFilesShown(versionFiles: FileRow[], viewer: StemViewer) {
    const stemFileIds = versionFiles.filter((f) => f.ownerType === O.stem).map((f) => f.id);
    const rights = await rightsOfStemFiles(this.db, stemFileIds);
    const withheld = new Set(rights.filter((stem) => !mayDownloadStem(stem, viewer)).map((s) => s.fileId));
    const stemOf = new Map(rights.map((stem) => [stem.fileId, stem.stemId]));
    return {
      shown: (file: FileRow) => !withheld.has(file.id),
      guardOf: (file: FileRow) => {
        const stemId = stemOf.get(file.id);
        return stemId === undefined ? {} : { guard: stemAudioMark(stemId, viewer) };
      },
    };
  }
}
