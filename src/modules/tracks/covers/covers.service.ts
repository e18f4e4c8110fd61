import type { Db } from '../../../db/client.ts';
import { actorOf } from '../../../events/actor.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { errors } from '../../../shared/errors.ts';
import { storedFileView, ticketView } from '../../files/file-view.ts';
import { type FileRow, findFile } from '../../files/files.repository.ts';
import type { FilesService } from '../../files/files.service.ts';
import { coverContentType } from '../../files/media-type.ts';
import { ownedBy, registerOwnedUpload, removeOwnedUpload } from '../../files/owned-uploads.ts';
import { teamEvent } from '../team-event.ts';
import { requireTrack, requireTrackForChange } from '../track-access.ts';
import { coverOwner } from '../track-files.ts';
import { touchTrack } from '../tracks.repository.ts';
import * as repo from './covers.repository.ts';

/** A cover's event (not a webhook type): its subject is the track. */
const coverEvent = (
  principal: Principal,
  teamId: number,
  type: string,
  trackId: number,
  payload: Record<string, unknown>,
) => teamEvent(principal, teamId, type, { type: 'track', id: trackId }, payload);

type Page = { limit: number; cursor?: string | undefined };

/**
 * The track's current cover with a signed URL to show it, or null. Read with `db` (it may be a transaction);
 * one lookup by primary key plus a local signature.
 */
export async function currentCoverView(
  db: Db,
  files: Pick<FilesService, 'downloadUrl'>,
  track: { teamId: number; coverFileId: number | null },
) {
  if (track.coverFileId === null) return null;
  const file = await findFile(db, track.teamId, track.coverFileId);
  return file ? coverView(files, file.id, file) : null;
}

/** The cover as a track shows it, with a fresh signed URL. */
export async function coverView(
  files: Pick<FilesService, 'downloadUrl'>,
  id: number,
  file: { key: string; originalName: string; contentType: string },
) {
  const link = await files.downloadUrl(file, { disposition: 'inline' });
  return {
    id,
    fileName: file.originalName,
    mediaType: file.contentType,
    url: link.url,
    urlExpiresAt: link.expiresAt,
  };
}

/**
 * Covers of a track: images uploaded in two steps (URL, PUT, `added`), one of them current. When the track
 * has no current cover, the next one registered becomes it; deleting the current cover leaves none.
 */
export class TrackCoversService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: FilesService,
    private readonly events: EventLog,
  ) {}

  private async view(file: FileRow, currentId: number | null) {
    const trackId = Number(file.ownerId);
    return { ...(await storedFileView(this.files, file, false)), trackId, isCurrent: file.id === currentId };
  }

  /** Registered covers, newest first. */
  async list(principal: Principal, trackId: number, page: Page) {
    const { track } = await requireTrack(this.db, principal, trackId);
    return this.files.pageOfOwner(track.teamId, coverOwner(trackId), page, (file) =>
      this.view(file, track.coverFileId),
    );
  }

  /** A pending cover and the URL to PUT its image to. */
  async create(
    principal: Principal,
    trackId: number,
    input: { fileName: string; fileSize?: number | undefined; mediaType?: string | undefined },
  ) {
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'owner');
    const ticket = await this.files.createUploadUrl({
      teamId: track.teamId,
      kind: 'image',
      fileName: input.fileName.trim(),
      contentType: coverContentType(input.mediaType),
      size: input.fileSize,
      owner: coverOwner(trackId),
      createdBy: actorOf(principal).actorUserId,
    });
    return { ...ticketView(ticket), trackId, isCurrent: false };
  }

  /** Registers the uploaded image; calling it again once registered answers the cover. */
  async added(principal: Principal, trackId: number, coverId: number) {
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'owner');
    const file = await registerOwnedUpload(this.files, {
      teamId: track.teamId,
      owner: coverOwner(trackId),
      fileId: coverId,
      kind: 'image',
      createdBy: actorOf(principal).actorUserId,
      also: async (tx, registered) => {
        const current = await repo.setCoverIfNone(tx, trackId, registered.id, this.clock.now());
        await this.events.record(
          tx,
          coverEvent(principal, track.teamId, 'track.cover_added', trackId, {
            coverId: registered.id,
            current,
          }),
        );
      },
    });
    if (!file) throw errors.notFound('cover');
    return this.view(file, await repo.currentCoverId(this.db, trackId));
  }

  /** Makes a registered cover the one the track shows. */
  async setCurrent(principal: Principal, trackId: number, coverId: number) {
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'owner');
    const file = await this.db.transaction(async (tx) => {
      const locked = await repo.lockCoverFile(tx, track.teamId, trackId, coverId);
      if (!locked) return undefined;
      await repo.setCurrentCover(tx, trackId, coverId, this.clock.now());
      await this.events.record(
        tx,
        coverEvent(principal, track.teamId, 'track.cover_set', trackId, { coverId }),
      );
      return locked;
    });
    if (file) return this.view(file, coverId);
    const pending = await this.files.getPending(track.teamId, coverId);
    if (ownedBy(pending, coverOwner(trackId)))
      throw errors.conflict(
        'This cover is not uploaded yet: PUT its image, then confirm it with POST .../covers/{coverId}/added',
      );
    throw errors.notFound('cover');
  }

  /** Deletes a cover and its image, registered or pending; the current one leaves the track without a cover. */
  async remove(principal: Principal, trackId: number, coverId: number): Promise<void> {
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'owner');
    const removed = await removeOwnedUpload(
      this.files,
      track.teamId,
      coverOwner(trackId),
      coverId,
      async (tx) => {
        // The foreign key clears tracks.cover_file_id; the track's answer changed, so it counts as updated.
        const wasCurrent = track.coverFileId === coverId;
        if (wasCurrent) await touchTrack(tx, trackId, this.clock.now());
        await this.events.record(
          tx,
          coverEvent(principal, track.teamId, 'track.cover_deleted', trackId, { coverId, wasCurrent }),
        );
      },
    );
    if (!removed) throw errors.notFound('cover');
  }
}
