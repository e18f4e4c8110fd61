import type { Db } from '../../../db/client.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { errors } from '../../../shared/errors.ts';
import { sessionUserId } from '../../../shared/tenancy.ts';
import { storedFileView, ticketView } from '../../files/file-view.ts';
import type { FileRow } from '../../files/files.repository.ts';
import type { FilesService } from '../../files/files.service.ts';
import { resolveUploadType } from '../../files/media-type.ts';
import { registerOwnedUpload, removeOwnedUpload } from '../../files/owned-uploads.ts';
import { teamEvent } from '../team-event.ts';
import { requireTrack, requireTrackForChange } from '../track-access.ts';
import type { TrackEventData } from '../track-events.ts';
import { trackMediaOwner } from '../track-files.ts';

type Page = { limit: number; cursor?: string | undefined };

/**
 * Files of a track beside its versions (video, artwork, documents, audio): uploaded in two steps (URL, PUT,
 * `added`), listed by anyone who can see the track, changed and deleted by the owning team only. A media id
 * is its file's id throughout.
 */
export class TrackMediaService {
  constructor(
    private readonly db: Db,
    private readonly files: FilesService,
    private readonly events: EventLog,
  ) {}

  private async view(file: FileRow, withPeaks: boolean) {
    return { ...(await storedFileView(this.files, file, withPeaks)), trackId: Number(file.ownerId) };
  }

  /** Registered media, newest first, without waveform data. */
  async list(principal: Principal, trackId: number, page: Page) {
    const { track } = await requireTrack(this.db, principal, trackId);
    return this.files.pageOfOwner(track.teamId, trackMediaOwner(trackId), page, (file) =>
      this.view(file, false),
    );
  }

  /** A pending media and the URL to PUT its bytes to; the kind follows the media type or the file name. */
  async create(
    principal: Principal,
    trackId: number,
    input: { fileName: string; fileSize?: number | undefined; mediaType?: string | undefined },
  ) {
    const userId = sessionUserId(principal);
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'owner');
    const fileName = input.fileName.trim();
    const { kind, contentType } = resolveUploadType(fileName, input.mediaType);
    const ticket = await this.files.createUploadUrl({
      teamId: track.teamId,
      kind,
      fileName,
      contentType,
      size: input.fileSize,
      owner: trackMediaOwner(trackId),
      createdBy: userId,
    });
    return { ...ticketView(ticket), trackId };
  }

  /** Registers the uploaded bytes; calling it again once registered answers the media. */
  async added(principal: Principal, trackId: number, mediaId: number) {
    const userId = sessionUserId(principal);
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'owner');
    const file = await registerOwnedUpload(this.files, {
      teamId: track.teamId,
      owner: trackMediaOwner(trackId),
      fileId: mediaId,
      createdBy: userId,
      also: async (tx, registered) => {
        const payload: TrackEventData<'track.media_added'> = {
          trackId,
          teamId: track.teamId,
          mediaId: registered.id,
          fileName: registered.originalName,
          contentType: registered.contentType,
          size: registered.size,
        };
        await this.events.record(
          tx,
          teamEvent(principal, track.teamId, 'track.media_added', { type: 'track', id: trackId }, payload),
        );
      },
    });
    if (!file) throw errors.notFound('media');
    return this.view(file, true);
  }

  /** Deletes a media and its bytes, registered or still pending. */
  async remove(principal: Principal, trackId: number, mediaId: number): Promise<void> {
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'owner');
    const removed = await removeOwnedUpload(
      this.files,
      track.teamId,
      trackMediaOwner(trackId),
      mediaId,
      async (tx) => {
        const payload: TrackEventData<'track.media_deleted'> = { trackId, teamId: track.teamId, mediaId };
        await this.events.record(
          tx,
          teamEvent(principal, track.teamId, 'track.media_deleted', { type: 'track', id: trackId }, payload),
        );
      },
    );
    if (!removed) throw errors.notFound('media');
  }
}
