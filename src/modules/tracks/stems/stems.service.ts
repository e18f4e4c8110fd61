import type { Db } from '../../../db/client.ts';
import { actorOf } from '../../../events/actor.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { isPositionCursor } from '../../../shared/cursor-values.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import { sessionOf } from '../../../shared/tenancy.ts';
import { ticketTransfer } from '../../files/file-view.ts';
import type { FileRow } from '../../files/files.repository.ts';
import type { FilesService } from '../../files/files.service.ts';
import { audioFileFacts, audioFileView } from '../audio-file-view.ts';
import { teamEventRecorder } from '../team-event.ts';
import { requireVersion, requireVersionForChange, type TrackAccess } from '../track-access.ts';
import { stemsOwner } from '../version-audio.ts';
import { parseStemAudioMark, STEM_AUDIO_TOPIC, stemAudioMark } from './stem-audio-marks.ts';
import type { STEM_EVENTS } from './stem-events.ts';
import {
  mayDownloadStem,
  orderedDownloaders,
  type StemDownloader,
  type StemViewer,
  stemViewerOf,
} from './stem-rights.ts';
import * as repo from './stems.repository.ts';

type StemInput = { name?: string; instrument?: string | null; notes?: string | null };
type PageInput = { limit: number; cursor?: string | undefined };
type RightsInput = { restricted: boolean; downloadableBy: StemDownloader[] };

const createdByOf = (principal: Principal) => (principal.type === 'session' ? principal.userId : null);

/**
 * Stems of a version: named audio parts uploaded in two steps (an upload URL, then the stem registered with
 * its key). All stem files of a version belong to one files-area owner; each stem row points at its file.
 */
export class StemsService {
  private readonly record;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: FilesService,
    events: EventLog,
  ) {
    this.record = teamEventRecorder<typeof STEM_EVENTS>(events, 'stem', (p) => p.stemId);
    files.marks.guard(STEM_AUDIO_TOPIC, (subject) => this.stillDownloadable(subject));
  }

  /** Whether the stem an audio URL was handed out for still exists and its viewer may still download it. */
  private async stillDownloadable(subject: string): Promise<boolean> {
    const mark = parseStemAudioMark(subject);
    const rights = mark && (await repo.rightsOfStem(this.db, mark.stemId));
    return rights !== undefined && mayDownloadStem(rights, mark!.viewer);
  }

  /** An upload URL for a stem's audio; its key registers the stem (or is given up with discardUpload). */
  async uploadUrl(
    principal: Principal,
    trackId: number,
    versionId: number,
    input: { fileName: string; fileSize?: number | undefined; mediaType?: string | undefined },
  ) {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    const mediaType = input.mediaType?.trim();
    const ticket = await this.files.createUploadUrl({
      teamId: track.teamId,
      kind: 'audio',
      fileName: input.fileName.trim(),
      contentType: mediaType && mediaType.toLowerCase() !== 'audio' ? mediaType : undefined,
      size: input.fileSize,
      owner: stemsOwner(versionId),
      createdBy: createdByOf(principal),
    });
    return { ...ticketTransfer(ticket), pendingKey: ticket.key, stemKey: ticket.key };
  }

  async list(principal: Principal, trackId: number, versionId: number, page: PageInput) {
    const access = await requireVersion(this.db, principal, trackId, versionId);
    const viewer = stemViewerOf(principal, access);
    const rows = await repo.listStems(
      this.db,
      versionId,
      page.limit + 1,
      decodeCursor(page.cursor, isPositionCursor),
    );
    const result = toPage(rows, page.limit, (last) => [last.position, last.id]);
    const fileIds = result.items.flatMap((s) => (s.fileId === null ? [] : [s.fileId]));
    const files = new Map((await this.files.getMany(access.track.teamId, fileIds)).map((f) => [f.id, f]));
    const items = await Promise.all(
      result.items.map((stem) =>
        this.view(stem, stem.fileId === null ? undefined : files.get(stem.fileId), false, viewer),
      ),
    );
    return { items, nextCursor: result.nextCursor };
  }

  async get(principal: Principal, trackId: number, versionId: number, stemId: number) {
    const access = await requireVersion(this.db, principal, trackId, versionId);
    return this.viewOf(principal, access, versionId, stemId);
  }

  /** Registers an uploaded stem file (checks, audio facts, waveform job) and creates the stem, at the end. */
  async create(
    principal: Principal,
    trackId: number,
    versionId: number,
    input: StemInput & { name: string; stemKey: string },
  ) {
    const access = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    const { track } = access;
    const stemId = await this.withUpload(
      track.teamId,
      versionId,
      input.stemKey,
      principal,
      async (tx, file) => {
        const fields = { ...fieldsOf(input), name: input.name.trim(), fileId: file.id };
        const id = await repo.insertStem(tx, versionId, fields, actorOf(principal), this.clock.now());
        await this.record(tx, principal, 'stem.created', {
          stemId: id,
          versionId,
          trackId,
          teamId: track.teamId,
          name: fields.name,
          instrument: fields.instrument ?? null,
          fileId: file.id,
        });
        return id;
      },
    );
    return this.viewOf(principal, access, versionId, stemId);
  }

  /** Changes a stem's name, instrument or notes; a `stemKey` replaces its file (the previous one is deleted). */
  async update(
    principal: Principal,
    trackId: number,
    versionId: number,
    stemId: number,
    input: StemInput & { stemKey?: string | undefined },
  ) {
    const access = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    const { track } = access;
    // Checked before an upload is registered, so a wrong stem id leaves the upload usable.
    if (!(await repo.findStem(this.db, versionId, stemId))) throw errors.notFound('stem');
    const { stemKey, ...fields } = input;
    const change = async (tx: Db, file?: FileRow) => {
      const stem = await repo.lockStem(tx, versionId, stemId);
      if (!stem) throw errors.notFound('stem');
      if (file && stem.fileId !== null) await this.files.delete(track.teamId, [stem.fileId], { tx });
      const changes = { ...fieldsOf(fields), ...(file ? { fileId: file.id } : {}) };
      await repo.updateStem(tx, stemId, changes, this.clock.now());
      await this.record(tx, principal, 'stem.updated', {
        stemId,
        versionId,
        trackId,
        teamId: track.teamId,
        changes,
      });
    };
    if (stemKey === undefined) await this.files.transaction((tx) => change(tx));
    else await this.withUpload(track.teamId, versionId, stemKey, principal, change);
    return this.viewOf(principal, access, versionId, stemId);
  }

  /** Deletes a stem and its file. */
  async remove(principal: Principal, trackId: number, versionId: number, stemId: number): Promise<void> {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    await this.files.transaction(async (tx) => {
      const stem = await repo.lockStem(tx, versionId, stemId);
      if (!stem) throw errors.notFound('stem');
      await repo.deleteStem(tx, stemId);
      if (stem.fileId !== null) await this.files.delete(track.teamId, [stem.fileId], { tx });
      await this.record(tx, principal, 'stem.deleted', { stemId, versionId, trackId, teamId: track.teamId });
    });
  }

  /**
   * Removes a stem's file (and its bytes) and keeps the stem, so a new upload can be attached with PATCH
   * `stemKey`. Answers the stem; on a stem without a file it changes nothing.
   */
  async removeFile(principal: Principal, trackId: number, versionId: number, stemId: number) {
    const access = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    const { track } = access;
    await this.files.transaction(async (tx) => {
      const stem = await repo.lockStem(tx, versionId, stemId);
      if (!stem) throw errors.notFound('stem');
      if (stem.fileId === null) return;
      // The stem's file id is cleared by the database as the file row goes.
      await this.files.delete(track.teamId, [stem.fileId], { tx });
      await repo.updateStem(tx, stemId, {}, this.clock.now());
      await this.record(tx, principal, 'stem.updated', {
        stemId,
        versionId,
        trackId,
        teamId: track.teamId,
        changes: { fileId: null },
      });
    });
    return this.viewOf(principal, access, versionId, stemId);
  }

  /**
   * Sets who may fetch the stem's audio (owners and admins of the owning team, by session). Recorded as
   * `stem.updated` with the new rights when they change; the same rights again change nothing.
   */
  async setRights(
    principal: Principal,
    trackId: number,
    versionId: number,
    stemId: number,
    input: RightsInput,
  ) {
    sessionOf(principal);
    const access = await requireVersionForChange(this.db, principal, trackId, versionId, 'manage');
    const rights = { restricted: input.restricted, downloadableBy: orderedDownloaders(input.downloadableBy) };
    await this.files.transaction(async (tx) => {
      const stem = await repo.lockStem(tx, versionId, stemId);
      if (!stem) throw errors.notFound('stem');
      const same =
        stem.restricted === rights.restricted && stem.downloadableBy.join() === rights.downloadableBy.join();
      if (same) return;
      await repo.updateStem(tx, stemId, rights, this.clock.now());
      await this.record(tx, principal, 'stem.updated', {
        stemId,
        versionId,
        trackId,
        teamId: access.track.teamId,
        changes: rights,
      });
    });
    return this.viewOf(principal, access, versionId, stemId);
  }

  /** Gives up a stem upload that will not be registered: the pending upload and any bytes PUT go. */
  async discardUpload(principal: Principal, trackId: number, versionId: number, pendingKey: string) {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'owner');
    if (!(await this.files.discardPending(track.teamId, pendingKey, stemsOwner(versionId))))
      throw errors.notFound('upload');
  }

  /**
   * Registers the stem upload `key` of the version and runs `work` with the new file in the registration's
   * transaction: a key of another version or team is 404, a key with nothing uploaded 409 upload_missing.
   */
  private async withUpload<T>(
    teamId: number,
    versionId: number,
    key: string,
    principal: Principal,
    work: (tx: Db, file: FileRow) => Promise<T>,
  ): Promise<T> {
    const prepared = await this.files.prepareRegistration({
      teamId,
      key,
      owner: stemsOwner(versionId),
      kind: 'audio',
      createdBy: createdByOf(principal),
    });
    return this.files.commitRegistration(prepared, async (tx) =>
      work(tx, await this.files.completeRegistration(tx, prepared)),
    );
  }

  private async viewOf(principal: Principal, access: TrackAccess, versionId: number, stemId: number) {
    const stem = await repo.findStem(this.db, versionId, stemId);
    if (!stem) throw errors.notFound('stem');
    const file = stem.fileId === null ? undefined : await this.files.get(access.track.teamId, stem.fileId);
    return this.view(stem, file, true, stemViewerOf(principal, access));
  }

  /** The stem as `viewer` sees it: its audio's links only when the viewer may download the stem. */
  private async view(
    { fileId: _, ...stem }: repo.StemRow,
    file: FileRow | undefined,
    withPeaks: boolean,
    viewer: StemViewer,
  ) {
    const downloadable = mayDownloadStem(stem, viewer);
    const shown = !file
      ? null
      : downloadable
        ? await audioFileView(this.files, file, { withPeaks, guard: stemAudioMark(stem.id, viewer) })
        : { ...audioFileFacts(file, withPeaks), url: null, downloadUrl: null, urlExpiresAt: null };
    return { ...stem, downloadableBy: orderedDownloaders(stem.downloadableBy), file: shown, downloadable };
  }
}

function fieldsOf(input: StemInput): repo.StemFields {
  const fields: repo.StemFields = {};
  if (input.name !== undefined) fields.name = input.name.trim();
  if (input.instrument !== undefined) fields.instrument = input.instrument?.trim() || null;
  if (input.notes !== undefined) fields.notes = input.notes;
  return fields;
}
