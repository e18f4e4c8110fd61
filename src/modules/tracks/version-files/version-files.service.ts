import type { Db } from '../../../db/client.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { errors } from '../../../shared/errors.ts';
import { sessionUserId } from '../../../shared/tenancy.ts';
import { ticketTransfer } from '../../files/file-view.ts';
import { type FileRow, listFilesOfOwner } from '../../files/files.repository.ts';
import type { FilesService } from '../../files/files.service.ts';
import { audioFileView } from '../audio-file-view.ts';
import { teamEvent } from '../team-event.ts';
import { requireVersionForChange } from '../track-access.ts';
import { extraFilesOwner, VERSION_FILE_OWNER } from '../version-audio.ts';
import type { VersionEventData } from '../versions/version-events.ts';
import { countVersionFiles } from './version-files.repository.ts';

/** The most additional files one version holds (they are all listed in its detail). */
export const MAX_VERSION_FILES = 20;

function roomFor(count: number) {
  if (count >= MAX_VERSION_FILES)
    throw errors.conflict(`A version holds at most ${MAX_VERSION_FILES} additional files; delete one first`);
}

/** An additional file of a version as its detail lists it. */
async function versionFileView(files: FilesService, file: FileRow) {
  return { ...(await audioFileView(files, file, { withPeaks: false })), createdAt: file.createdAt };
}

/** The version's additional files, oldest first, with signed links (for its detail). */
export async function listVersionFiles(db: Db, files: FilesService, teamId: number, versionId: number) {
  const owner = { type: VERSION_FILE_OWNER, id: String(versionId) };
  const rows = await listFilesOfOwner(db, teamId, owner, { limit: MAX_VERSION_FILES });
  return Promise.all(rows.reverse().map((file) => versionFileView(files, file)));
}

/**
 * Additional audio files of a version (alternate bounces, instrumentals, ...): an upload URL, then the file
 * registered with its key; the version's detail lists them.
 */
export class VersionFilesService {
  constructor(
    private readonly db: Db,
    private readonly files: FilesService,
    private readonly events: EventLog,
  ) {}

  async createUpload(
    principal: Principal,
    trackId: number,
    versionId: number,
    audioFileName: string,
    audioFileSize?: number,
  ) {
    const userId = sessionUserId(principal);
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    roomFor(await countVersionFiles(this.db, track.teamId, versionId));
    const ticket = await this.files.createUploadUrl({
      teamId: track.teamId,
      kind: 'audio',
      fileName: audioFileName.trim(),
      size: audioFileSize,
      owner: extraFilesOwner(versionId),
      createdBy: userId,
    });
    return {
      id: ticket.fileId,
      versionId,
      fileName: ticket.fileName,
      contentType: ticket.contentType,
      ...ticketTransfer(ticket),
      fileKey: ticket.key,
    };
  }

  /** Registers an uploaded additional file of the version (checks the bytes, reads its facts). */
  async register(principal: Principal, trackId: number, versionId: number, fileKey: string) {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    const prepared = await this.files.prepareRegistration({
      teamId: track.teamId,
      key: fileKey,
      owner: extraFilesOwner(versionId),
      kind: 'audio',
      createdBy: principal.type === 'session' ? principal.userId : null,
    });
    const file = await this.files.commitRegistration(prepared, async (tx) => {
      roomFor(await countVersionFiles(tx, track.teamId, versionId, true));
      const registered = await this.files.completeRegistration(tx, prepared);
      const payload: VersionEventData<'version.file_added'> = {
        versionId,
        trackId,
        teamId: track.teamId,
        fileId: registered.id,
        fileName: registered.originalName,
        contentType: registered.contentType,
        size: registered.size,
      };
      await this.events.record(
        tx,
        teamEvent(principal, track.teamId, 'version.file_added', { type: 'version', id: versionId }, payload),
      );
      return registered;
    });
    return versionFileView(this.files, file);
  }

  async remove(principal: Principal, trackId: number, versionId: number, fileId: number): Promise<void> {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    const owner = extraFilesOwner(versionId);
    const file = await this.files.get(track.teamId, fileId);
    if (!file || file.ownerType !== owner.type || file.ownerId !== String(owner.id))
      throw errors.notFound('file');
    await this.files.transaction(async (tx) => {
      if ((await this.files.delete(track.teamId, [fileId], { tx })).length === 0)
        throw errors.notFound('file');
      const payload: VersionEventData<'version.file_deleted'> = {
        versionId,
        trackId,
        teamId: track.teamId,
        fileId,
      };
      await this.events.record(
        tx,
        teamEvent(
          principal,
          track.teamId,
          'version.file_deleted',
          { type: 'version', id: versionId },
          payload,
        ),
      );
    });
  }
}
