import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { files, trackVersions } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import { fileLinks } from '../files/file-view.ts';
import type { FilesService } from '../files/files.service.ts';
import { requireTrack } from './track-access.ts';
import { VERSION_AUDIO_OWNER } from './versions.repository.ts';

/** The registered audio files of a track's versions, in version order. */
async function versionAudioFiles(db: Db, teamId: number, trackId: number) {
  return db
    .select({ file: files, versionId: trackVersions.id })
    .from(trackVersions)
    .innerJoin(
      files,
      and(
        eq(files.teamId, teamId),
        eq(files.ownerType, VERSION_AUDIO_OWNER),
        eq(files.ownerId, sql`${trackVersions.id}::text` as SQL<string>),
      ),
    )
    .where(eq(trackVersions.trackId, trackId))
    .orderBy(asc(trackVersions.position), asc(trackVersions.id), asc(files.id));
}

/** Every file of a track with signed URLs (today: the audio of its versions). */
export class TrackAssetsService {
  constructor(
    private readonly db: Db,
    private readonly files: FilesService,
  ) {}

  async list(principal: Principal, trackId: number) {
    const { track } = await requireTrack(this.db, principal, trackId);
    const rows = await versionAudioFiles(this.db, track.teamId, trackId);
    const items = await Promise.all(
      rows.map(async ({ file, versionId }) => ({
        fileId: file.id,
        role: 'version_audio' as const,
        versionId,
        fileName: file.originalName,
        contentType: file.contentType,
        size: file.size,
        createdAt: file.createdAt,
        ...(await fileLinks(this.files, file)),
      })),
    );
    return { items, nextCursor: null };
  }
}
