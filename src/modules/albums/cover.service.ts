import type { Db } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { ticketTransfer } from '../files/file-view.ts';
import type { FilesService } from '../files/files.service.ts';
import { requireAlbum } from './album-access.ts';
import { albumEvent } from './album-event.ts';
import { lockAlbum } from './album-locks.ts';
import { coverOwner, coverView } from './album-view.ts';
import { updateAlbum } from './albums.repository.ts';

const uploaderOf = (principal: Principal) => (principal.type === 'session' ? principal.userId : null);

/** The album cover: an image uploaded in two steps (URL, then PUT its key); setting one deletes the last. */
export class AlbumCoverService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: FilesService,
    private readonly events: EventLog,
  ) {}

  async createUploadUrl(principal: Principal, albumId: number, input: { fileName: string }) {
    const { teamId } = await requireAlbum(this.db, principal, albumId);
    const ticket = await this.files.createUploadUrl({
      teamId,
      kind: 'image',
      fileName: input.fileName.trim(),
      owner: coverOwner(albumId),
      createdBy: uploaderOf(principal),
    });
    return { ...ticketTransfer(ticket), fileKey: ticket.key };
  }

  /** Makes the uploaded image the album's cover; the previous cover and its bytes are deleted. */
  async set(principal: Principal, albumId: number, fileKey: string) {
    const { teamId } = await requireAlbum(this.db, principal, albumId);
    const owner = coverOwner(albumId);
    const prepared = await this.files.prepareRegistration({
      teamId,
      key: fileKey,
      owner,
      kind: 'image',
      createdBy: uploaderOf(principal),
    });
    const file = await this.files.commitRegistration(prepared, async (tx) => {
      if (!(await lockAlbum(tx, teamId, albumId))) throw errors.notFound('album');
      const registered = await this.files.completeRegistration(tx, prepared);
      await this.files.deleteOfOwner(teamId, owner, { tx, keepId: registered.id });
      await updateAlbum(tx, albumId, { coverFileId: registered.id }, this.clock.now());
      await this.events.record(
        tx,
        albumEvent(principal, teamId, 'album.cover_set', albumId, { fileId: registered.id }),
      );
      return registered;
    });
    return coverView(this.files, albumId, file);
  }

  async remove(principal: Principal, albumId: number): Promise<void> {
    const { teamId } = await requireAlbum(this.db, principal, albumId);
    const removed = await this.files.transaction(async (tx) => {
      const album = await lockAlbum(tx, teamId, albumId);
      if (!album) throw errors.notFound('album');
      if (album.coverFileId === null) return false;
      await this.files.deleteOfOwner(teamId, coverOwner(albumId), { tx });
      await updateAlbum(tx, albumId, { coverFileId: null }, this.clock.now());
      await this.events.record(tx, albumEvent(principal, teamId, 'album.cover_removed', albumId));
      return true;
    });
    if (!removed) throw errors.notFound('cover');
  }
}
