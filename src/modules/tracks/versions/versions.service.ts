import type { Db } from '../../../db/client.ts';
import { actorOf } from '../../../events/actor.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { JobQueue } from '../../../jobs/job-queue.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { isPositionCursor } from '../../../shared/cursor-values.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import { sessionUserId } from '../../../shared/tenancy.ts';
import { ticketTransfer } from '../../files/file-view.ts';
import { listFilesOfOwner } from '../../files/files.repository.ts';
import type { FilesService } from '../../files/files.service.ts';
import { audioFileView } from '../audio-file-view.ts';
import { enqueueCarryNotes } from '../carry/carry-notes.ts';
import { findAnalysis } from '../music-tools/music-tools.repository.ts';
import { applyPermutation } from '../permutation.ts';
import { playMark } from '../play-marks.ts';
import { latestReview } from '../reviews/reviews.repository.ts';
import { teamEvent } from '../team-event.ts';
import {
  requireTrack,
  requireTrackForChange,
  requireVersion,
  requireVersionForChange,
} from '../track-access.ts';
import { deleteFilesOfVersions } from '../track-files.ts';
import { touchTrack } from '../tracks.repository.ts';
import { audioOwner } from '../version-audio.ts';
import { listVersionFiles } from '../version-files/version-files.service.ts';
import type { VersionEventData } from './version-events.ts';
import * as repo from './versions.repository.ts';
import { VERSION_AUDIO_OWNER } from './versions.repository.ts';

/** Versions of a track: list, detail, metadata, delete, final version and order. */
export class VersionsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: FilesService,
    private readonly events: EventLog,
    private readonly jobs: JobQueue,
  ) {}

  /**
   * Adds a version at the end of the track's list and answers it with the upload URL of its audio; its event
   * is recorded once the URL is issued (without one, the version is not kept).
   */
  async create(principal: Principal, trackId: number, audioFileName: string, audioFileSize?: number) {
    const userId = sessionUserId(principal);
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'owner');
    const fileName = audioFileName.trim();
    const now = this.clock.now();
    const versionId = await this.db.transaction(async (tx) => {
      await repo.lockVersionIds(tx, trackId);
      const id = await repo.insertVersion(tx, trackId, fileName, actorOf(principal), now);
      await touchTrack(tx, trackId, now);
      return id;
    });
    let ticket: Awaited<ReturnType<FilesService['createUploadUrl']>>;
    try {
      ticket = await this.files.createUploadUrl({
        teamId: track.teamId,
        kind: 'audio',
        fileName,
        size: audioFileSize,
        owner: audioOwner(versionId),
        createdBy: userId,
      });
    } catch (error) {
      await repo.deleteVersion(this.db, versionId);
      throw error;
    }
    await this.db.transaction(async (tx) => {
      await repo.setVersionAudioKey(tx, versionId, ticket.key);
      await this.record(tx, principal, 'version.created', versionId, {
        versionId,
        trackId,
        teamId: track.teamId,
        audioFileName: fileName,
      });
    });

    return {
      ...(await this.detailOf(this.db, track.teamId, versionId, principal)),
      upload: { ...ticketTransfer(ticket), fileKey: ticket.key },
    };
  }

  /**
   * Registers the uploaded audio of a version (checks the bytes, reads duration and format, queues the
   * waveform); a previous audio file of the version is deleted.
   */
  async registerAudio(principal: Principal, trackId: number, versionId: number, fileKey: string) {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    const owner = audioOwner(versionId);
    const prepared = await this.files.prepareRegistration({
      teamId: track.teamId,
      key: fileKey,
      owner,
      kind: 'audio',
      createdBy: principal.type === 'session' ? principal.userId : null,
    });
    await this.files.commitRegistration(prepared, async (tx) => {
      const file = await this.files.completeRegistration(tx, prepared);
      await this.files.deleteOfOwner(track.teamId, owner, { tx, keepId: file.id });
      await repo.setVersionAudio(tx, versionId, {
        audioFileKey: file.key,
        audioFileName: file.originalName,
        durationSeconds: file.audio?.durationSeconds ?? null,
        updatedAt: this.clock.now(),
      });
      await this.record(tx, principal, 'version.audio_registered', versionId, {
        versionId,
        trackId,
        teamId: track.teamId,
        fileId: file.id,
        fileName: file.originalName,
        contentType: file.contentType,
        size: file.size,
        durationSeconds: file.audio?.durationSeconds ?? null,
      });
      // After the waveform job queued with the file: carrying waits for both waveforms.
      await enqueueCarryNotes(this.jobs, tx, versionId);
    });
    return this.detailOf(this.db, track.teamId, versionId, principal);
  }

  async list(principal: Principal, trackId: number, page: { limit: number; cursor?: string | undefined }) {
    await requireTrack(this.db, principal, trackId);
    const rows = await repo.listVersions(
      this.db,
      trackId,
      page.limit + 1,
      decodeCursor(page.cursor, isPositionCursor),
    );
    return toPage(rows, page.limit, (last) => [last.position, last.id]);
  }

  async detail(principal: Principal, trackId: number, versionId: number) {
    const { track } = await requireVersion(this.db, principal, trackId, versionId);
    return this.detailOf(this.db, track.teamId, versionId, principal);
  }

  /**
   * The version with its audio (facts, waveform, signed URLs), additional files, latest review and counts.
   * The stream URL of the audio is marked for `viewer`: fetching it records a play by them.
   */
  async detailOf(db: Db, teamId: number, versionId: number, viewer: Principal) {
    const version = await repo.findVersionView(db, versionId);
    if (!version) throw errors.notFound('version');
    const [review, counts, audioFiles, files, analysis] = await Promise.all([
      latestReview(db, versionId),
      repo.countVersionItems(db, versionId),
      listFilesOfOwner(db, teamId, { type: VERSION_AUDIO_OWNER, id: String(versionId) }, { limit: 1 }),
      listVersionFiles(db, this.files, teamId, versionId),
      findAnalysis(db, versionId),
    ]);
    const file = audioFiles[0];
    const audio = file
      ? await audioFileView(this.files, file, { withPeaks: true, mark: playMark(versionId, viewer) })
      : null;
    return { ...version, audio, files, review: review ?? null, counts, analysis };
  }

  async updateMetadata(
    principal: Principal,
    trackId: number,
    versionId: number,
    fields: { name?: string; notes?: string | null },
  ) {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    const now = this.clock.now();
    const changes = { ...fields, ...(fields.name ? { name: fields.name.trim() } : {}) };
    return this.db.transaction(async (tx) => {
      await repo.updateVersion(tx, versionId, changes, now);
      await touchTrack(tx, trackId, now);
      await this.record(tx, principal, 'version.updated', versionId, {
        versionId,
        trackId,
        teamId: track.teamId,
        changes,
      });
      return this.detailOf(tx, track.teamId, versionId, principal);
    });
  }

  async remove(principal: Principal, trackId: number, versionId: number): Promise<void> {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    await this.files.transaction(async (tx) => {
      await repo.lockVersionIds(tx, trackId);
      if ((await repo.countVersions(tx, trackId)) <= 1)
        throw errors.conflict('A track keeps at least one version; delete the track instead');
      // Files first: the version's comments, gone with it, are what find their attachments.
      await deleteFilesOfVersions(this.files, tx, track.teamId, [versionId]);
      await repo.deleteVersion(tx, versionId);
      await touchTrack(tx, trackId, this.clock.now());
      await this.record(tx, principal, 'version.deleted', versionId, {
        versionId,
        trackId,
        teamId: track.teamId,
      });
    });
  }

  async markFinal(principal: Principal, trackId: number, versionId: number) {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      await repo.lockVersionIds(tx, trackId);
      await repo.markFinal(tx, trackId, versionId, now);
      await touchTrack(tx, trackId, now);
      await this.record(tx, principal, 'version.marked_final', versionId, {
        versionId,
        trackId,
        teamId: track.teamId,
      });
      return this.detailOf(tx, track.teamId, versionId, principal);
    });
  }

  async reorder(principal: Principal, trackId: number, orders: { versionId: number; order: number }[]) {
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'owner');
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const members = new Set(await repo.lockVersionIds(tx, trackId));
      const ordered = applyPermutation(
        orders.map((o) => ({ id: o.versionId, order: o.order })),
        members,
        '/body/versions',
        'versionId',
        'the versions of this track',
      );
      await repo.setVersionPositions(tx, ordered, now);
      await touchTrack(tx, trackId, now);
      await this.events.record(
        tx,
        teamEvent(
          principal,
          track.teamId,
          'versions.reordered',
          { type: 'track', id: trackId },
          {
            versionIds: ordered,
          },
        ),
      );
      return { trackId, versionIds: ordered };
    });
  }

  private record<
    T extends
      | 'version.created'
      | 'version.updated'
      | 'version.deleted'
      | 'version.marked_final'
      | 'version.audio_registered',
  >(tx: Db, principal: Principal, type: T, versionId: number, payload: VersionEventData<T>) {
    return this.events.record(
      tx,
      teamEvent(principal, payload.teamId, type, { type: 'version', id: versionId }, payload),
    );
  }
}
