import type { Db } from '../../db/client.ts';
import type { StoredAudioFacts } from '../../db/schema/index.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { readAudioFacts } from '../../media/audio-facts.ts';
import type { Clock } from '../../shared/clock.ts';
import { AppError, errors } from '../../shared/errors.ts';
import { decodeIdCursor, toPage } from '../../shared/pagination.ts';
import type { BlobInfo, BlobStore } from '../../storage/blob-store.ts';
import { guessContentType, mediaTypeOf } from '../../storage/content-type.ts';
import { BlobNotFoundError } from '../../storage/errors.ts';
import { checkFileLimits, type FileKind, type FileLimits } from '../../storage/limits.ts';
import { drainBlobDeletions } from './blob-deletions.ts';
import type { DownloadMark, DownloadMarks } from './download-marks.ts';
import * as repo from './files.repository.ts';
import { matchesImageSignature, SIGNATURE_BYTES } from './image-signature.ts';
import { finalKeyFor, pendingKeyFor } from './keys.ts';
import type { ResumableTicket, ResumableTickets } from './resumable/resumable-tickets.ts';
import { quotaMessage } from './upload-quota.ts';

/** What a file belongs to: `{type: 'team_media', id: teamId}`, `{type: 'stem', id: stemId}`, ... */
export type FileOwner = { type: string; id: string | number };

export type FilesSettings = {
  limits: FileLimits;
  uploadUrlTtlSeconds: number;
  downloadUrlTtlSeconds: number;
  pendingUploadTtlSeconds: number;
  /** Open (issued, not registered) uploads a team may hold at once. */
  maxOpenUploadsPerTeam: number;
};

/** The part of the job queue the files area uses. */
export type FilesJobQueue = Pick<JobQueue, 'enqueue'>;

export const PEAKS_JOB = 'files.peaks';
export type PeaksJobPayload = { teamId: number; fileId: number };

export type CreateUploadInput = {
  teamId: number;
  kind: FileKind;
  fileName: string;
  /** The media type; guessed from the file name's extension when absent. */
  contentType?: string | undefined;
  /** The exact size when the client knows it: the URL then accepts that many bytes and no other number. */
  size?: number | undefined;
  owner: FileOwner;
  createdBy?: string | null | undefined;
};

/** An upload URL and what the client must send with it; `key` is what it registers afterwards. */
export type UploadTicket = {
  /** The id the file will have once registered. */
  fileId: number;
  uploadUrl: string;
  method: 'PUT';
  headers: Record<string, string>;
  key: string;
  expiresAt: Date;
  fileName: string;
  contentType: string;
  kind: FileKind;
  size: number | null;
  createdAt: Date;
  /** The same upload sent in resumable pieces (tus): the endpoint and the token to create it with. */
  resumable: ResumableTicket;
};

export type RegisterInput = {
  teamId: number;
  /** The key the upload URL was issued for. */
  key: string;
  /** Must be the owner the upload URL was issued for: a key uploaded for one resource never registers another. */
  owner: FileOwner;
  /** When given, the upload must be of this kind. */
  kind?: FileKind | undefined;
  createdBy?: string | null | undefined;
};

/** An upload whose bytes were checked and moved to their final key; completeRegistration records it. */
export type PreparedUpload = {
  pending: repo.PendingUploadRow;
  size: number;
  audio: StoredAudioFacts | null;
  audioFailureReason: string | null;
  createdBy: string | null;
};

export type DownloadLink = { url: string; expiresAt: Date };

/** Whether `error` is the catalogue error with this code. */
export function isAppError(error: unknown, code: string): boolean {
  return error instanceof AppError && error.code === code;
}

const ownerRef = (owner: FileOwner): repo.FileOwnerRef => ({ type: owner.type, id: String(owner.id) });

function limitError(check: ReturnType<typeof checkFileLimits>) {
  if (check.ok) return undefined;
  return check.status === 413
    ? errors.payloadTooLarge(check.message)
    : errors.unsupportedFileType(check.message);
}

/**
 * Files of every area: signed upload URLs, registration (checks, move to the final key, quota, audio facts,
 * peaks job), signed download URLs and deletion. Callers check access to the owning resource first; every
 * operation here is scoped to the team it is given.
 */
export class FilesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly store: BlobStore,
    readonly settings: FilesSettings,
    private readonly jobs: FilesJobQueue,
    /** Marked download URLs and the handlers areas register for them. */
    readonly marks: DownloadMarks,
    private readonly resumable: ResumableTickets,
  ) {}

  /** Keys of blobs whose rows a transaction of transaction() deleted, to remove once it commits. */
  readonly #deletedIn = new WeakMap<object, string[]>();

  /**
   * Issues a signed upload URL for a new file of a team, after checking its type and size. An upload with a
   * declared size reserves it of the quota until it is registered, discarded or expires: that URL is refused
   * when used + reserved bytes would pass the quota, or when the team already holds the maximum number of
   * open uploads that hold quota. Without a size nothing is held until bytes arrive (see UploadQuota), so a
   * team may hold any number of URLs nothing was sent to yet.
   */
  async createUploadUrl(input: CreateUploadInput): Promise<UploadTicket> {
    const given = input.contentType?.trim() ? input.contentType : guessContentType(input.fileName);
    if (!given) {
      throw errors.unsupportedFileType(
        `The type of "${input.fileName}" cannot be told from its name; send its content type`,
      );
    }
    const contentType = mediaTypeOf(given);
    const problem = limitError(
      checkFileLimits({ kind: input.kind, contentType, size: input.size ?? 0 }, this.settings.limits),
    );
    if (problem) throw problem;
    const now = this.clock.now();
    const maxBytes = this.settings.limits[input.kind].maxBytes;
    const owner = ownerRef(input.owner);
    // The row exists before the URL does, so the upload route always finds the upload it is signed for.
    const pending = await this.reserveUpload(input.teamId, input.size, now, {
      teamId: input.teamId,
      kind: input.kind,
      key: pendingKeyFor(input.teamId),
      finalKey: finalKeyFor(input.teamId, input.kind, input.fileName),
      fileName: input.fileName,
      contentType,
      declaredSize: input.size ?? null,
      maxBytes,
      ownerType: owner.type,
      ownerId: owner.id,
      expiresAt: new Date(now.getTime() + this.settings.pendingUploadTtlSeconds * 1000),
      createdBy: input.createdBy ?? null,
      createdAt: now,
    });
    const url = await this.store.createUploadUrl({
      key: pending.key,
      contentType,
      maxBytes,
      expiresInSeconds: this.settings.uploadUrlTtlSeconds,
      ...(input.size !== undefined ? { contentLength: input.size } : {}),
    });
    return {
      fileId: pending.id,
      uploadUrl: url.url,
      method: 'PUT',
      headers: url.headers,
      key: pending.key,
      expiresAt: url.expiresAt,
      fileName: pending.fileName,
      contentType,
      kind: input.kind,
      size: input.size ?? null,
      createdAt: pending.createdAt,
      resumable: this.resumable.issue({
        key: pending.key,
        contentType,
        maxBytes: input.size ?? maxBytes,
        expiresAt: url.expiresAt,
      }),
    };
  }

  /**
   * Records a pending upload; one with a declared `size` first needs room for that many more bytes and one
   * more open upload. Serialised on the team's storage row, so two tickets never both take the last free bytes.
   */
  private async reserveUpload(
    teamId: number,
    size: number | undefined,
    now: Date,
    values: repo.NewPendingUploadRow,
  ): Promise<repo.PendingUploadRow> {
    return this.db.transaction(async (tx) => {
      const room = await repo.lockStorage(tx, teamId);
      if (!room) throw errors.notFound('team');
      if (size === undefined) return repo.insertPendingUpload(tx, values);
      const open = await repo.openUploadsOf(tx, teamId, now);
      if (open.count >= this.settings.maxOpenUploadsPerTeam) {
        throw errors.tooManyOpenUploads(this.settings.maxOpenUploadsPerTeam);
      }
      if (room.usedBytes + open.reservedBytes + size > room.quotaBytes) {
        throw errors.quotaExceeded(quotaMessage(room.usedBytes, room.quotaBytes, size, open.reservedBytes));
      }
      return repo.insertPendingUpload(tx, values);
    });
  }

  /**
   * Registers an uploaded key as a file of its owner, in its own transaction; see prepare/complete. `also`
   * runs in that transaction with the new file (the owner's own writes: activity, a pointer to the file).
   */
  async register(
    input: RegisterInput,
    also?: (tx: Db, file: repo.FileRow) => Promise<void>,
  ): Promise<repo.FileRow> {
    const prepared = await this.prepareRegistration(input);
    try {
      return await this.commitRegistration(prepared, async (tx) => {
        const file = await this.completeRegistration(tx, prepared);
        await also?.(tx, file);
        return file;
      });
    } catch (error) {
      // Registered by a concurrent call meanwhile: the same answer as if this one had won.
      const registered =
        isAppError(error, 'upload_closed') &&
        (await repo.findFile(this.db, input.teamId, prepared.pending.id));
      if (registered) return registered;
      throw error;
    }
  }

  /**
   * The slow half of registration, outside any transaction: finds the upload, closes it to further PUTs,
   * moves its bytes to their final key, then checks them there (size, type, image signature) and reads audio
   * facts from them: what is recorded is exactly what stays stored. Refused bytes end the upload (a new
   * upload URL is needed); an upload with no bytes yet stays open.
   */
  async prepareRegistration(input: RegisterInput): Promise<PreparedUpload> {
    const pending = await repo.findPendingByKey(this.db, input.teamId, input.key);
    const owner = ownerRef(input.owner);
    if (!pending || pending.ownerType !== owner.type || pending.ownerId !== owner.id) {
      throw errors.notFound('upload');
    }
    if (input.kind && pending.kind !== input.kind) {
      throw errors.unsupportedFileType(
        `This upload is a ${pending.kind} file; a ${input.kind} file is needed`,
      );
    }
    if (pending.expiresAt <= this.clock.now()) throw errors.uploadClosed();
    await this.closeAndMove(pending);
    const info = await this.store.head(pending.finalKey);
    if (!info) throw errors.uploadMissing();
    await this.checkUploadedBytes(pending, info);
    const facts = pending.kind === 'audio' ? await this.readFacts(pending, info.size) : undefined;
    return {
      pending,
      size: info.size,
      audio: facts?.ok ? facts.facts : null,
      audioFailureReason: facts && !facts.ok ? facts.reason : null,
      createdBy: input.createdBy ?? null,
    };
  }

  /**
   * The quick half, inside the caller's transaction: claims the upload once, checks the quota against the
   * locked counter and what the team's other open uploads hold (with S3 the bytes reach the bucket unseen,
   * so this is where they are counted), records the file and queues its peaks. Run it through
   * commitRegistration(), which ends an upload refused for the quota.
   * With `owner`, the file belongs to it rather than to the owner the upload was issued for (an upload
   * issued for a version becomes an attachment of the comment created with it).
   */
  async completeRegistration(
    tx: Db,
    prepared: PreparedUpload,
    options: { owner?: FileOwner } = {},
  ): Promise<repo.FileRow> {
    const { pending } = prepared;
    const owner = options.owner ? ownerRef(options.owner) : { type: pending.ownerType, id: pending.ownerId };
    const locked = await repo.lockPending(tx, pending.teamId, pending.id);
    if (!locked || locked.expiresAt <= this.clock.now()) throw errors.uploadClosed();
    const room = await repo.lockStorage(tx, pending.teamId);
    if (!room) throw errors.notFound('team');
    const others = await repo.openUploadsOf(tx, pending.teamId, this.clock.now(), pending.id);
    if (room.usedBytes + others.reservedBytes + prepared.size > room.quotaBytes) {
      throw errors.quotaExceeded(
        quotaMessage(room.usedBytes, room.quotaBytes, prepared.size, others.reservedBytes),
      );
    }
    const isAudio = pending.kind === 'audio';
    const file = await repo.insertFile(tx, {
      id: pending.id,
      teamId: pending.teamId,
      kind: pending.kind,
      key: pending.finalKey,
      size: prepared.size,
      contentType: pending.contentType,
      originalName: pending.fileName,
      ownerType: owner.type,
      ownerId: owner.id,
      audio: prepared.audio,
      audioFailureReason: prepared.audioFailureReason,
      peaksStatus: isAudio ? 'pending' : 'none',
      createdBy: prepared.createdBy ?? pending.createdBy,
      createdAt: this.clock.now(),
    });
    // The file row exists by now, so deleting the pending row queues only the (already moved) pending key.
    await repo.deletePending(tx, pending.teamId, pending.id);
    if (isAudio) {
      const payload: PeaksJobPayload = { teamId: file.teamId, fileId: file.id };
      await this.jobs.enqueue(tx, PEAKS_JOB, payload, { dedupeKey: `file:${file.id}` });
    }
    return file;
  }

  /**
   * Runs `work` (completeRegistration of each upload plus the caller's own writes) in one transaction, then
   * removes the emptied pending keys. When an upload was closed meanwhile (expired and removed), the bytes
   * this registration moved are deleted unless another registration of the same upload recorded them. Uploads
   * refused for the quota end with their bytes, which would otherwise sit unregistered (and, with S3, uncounted).
   */
  async commitRegistration<T>(
    prepared: PreparedUpload | PreparedUpload[],
    work: (tx: Db) => Promise<T>,
  ): Promise<T> {
    const uploads = (Array.isArray(prepared) ? prepared : [prepared]).map((p) => p.pending);
    try {
      return await this.transaction(
        work,
        uploads.map((pending) => pending.key),
      );
    } catch (error) {
      if (isAppError(error, 'upload_closed')) {
        const stray: string[] = [];
        for (const { finalKey } of uploads) {
          if (await repo.fileKeyTaken(this.db, finalKey)) continue;
          await repo.queueBlobDeletion(this.db, finalKey);
          stray.push(finalKey);
        }
        if (stray.length > 0) await this.drainDeletions(stray);
      }
      if (isAppError(error, 'quota_exceeded')) {
        for (const pending of uploads) await this.endUpload(pending);
      }
      throw error;
    }
  }

  /**
   * Runs `work` in a transaction; the blobs of files it deletes through this service (delete, deleteOfOwner
   * with its `tx`) are removed right after the commit. Without it they go within a minute, by the job.
   */
  async transaction<T>(work: (tx: Db) => Promise<T>, alsoDrain: string[] = []): Promise<T> {
    const keys = [...alsoDrain];
    const result = await this.db.transaction(async (tx) => {
      this.#deletedIn.set(tx, keys);
      return work(tx);
    });
    await this.drainDeletions(keys);
    return result;
  }

  /** Removes the blobs of rows just deleted: now without a transaction, after its commit within one. */
  private async afterDelete(tx: Db | undefined, keys: string[]): Promise<void> {
    if (!tx) await this.drainDeletions(keys);
    else this.#deletedIn.get(tx)?.push(...keys);
  }

  /**
   * Closes the upload to PUTs (waiting for one being stored right now), then moves its bytes to the final
   * key, which nothing writes again. Only the call that closed it moves; a repeated registration finds the
   * bytes at the final key, or answers upload_registering while the first one is still moving them.
   */
  private async closeAndMove(pending: repo.PendingUploadRow): Promise<void> {
    const closed = await repo.closePending(this.db, pending.teamId, pending.id, this.clock.now());
    if (!closed) {
      const current = await repo.findPendingById(this.db, pending.teamId, pending.id);
      if (!current || current.expiresAt <= this.clock.now()) throw errors.uploadClosed();
      if (!(await this.store.head(pending.finalKey))) throw errors.uploadRegistering();
      return;
    }
    try {
      await this.store.move(pending.key, pending.finalKey);
    } catch (error) {
      // Nothing was uploaded yet: the upload opens again for the PUT. Other failures leave it closed.
      if (error instanceof BlobNotFoundError) {
        await repo.reopenPending(this.db, pending.teamId, pending.id);
        throw errors.uploadMissing();
      }
      throw error;
    }
  }

  /**
   * Refuses bytes that are not what the upload URL allowed (S3 URLs cannot bind a maximum) and says why; the
   * upload ends with them (its row and bytes go).
   */
  private async checkUploadedBytes(pending: repo.PendingUploadRow, info: BlobInfo): Promise<void> {
    let problem: Error | undefined;
    if (mediaTypeOf(info.contentType) !== pending.contentType) {
      problem = errors.unsupportedFileType(
        `The file was uploaded as ${mediaTypeOf(info.contentType) || 'an unknown type'}, not ${pending.contentType}`,
      );
    } else if (info.size > pending.maxBytes) {
      problem = limitError(
        checkFileLimits(
          { kind: pending.kind, contentType: pending.contentType, size: info.size },
          this.settings.limits,
        ),
      );
      problem ??= errors.payloadTooLarge(`This upload accepts at most ${pending.maxBytes} bytes`);
    } else if (pending.declaredSize !== null && info.size !== pending.declaredSize) {
      problem = errors.uploadSizeMismatch(pending.declaredSize, info.size);
    } else if (
      pending.kind === 'image' &&
      !matchesImageSignature(pending.contentType, await this.readHead(info))
    ) {
      problem = errors.unsupportedFileType(`The uploaded bytes are not a ${pending.contentType} image`);
    }
    if (!problem) return;
    await this.endUpload(pending);
    throw problem;
  }

  /** Removes an upload and its bytes (the final blob only when no file took it: see the pending trigger). */
  private async endUpload(pending: repo.PendingUploadRow): Promise<void> {
    await repo.deletePending(this.db, pending.teamId, pending.id);
    await this.drainDeletions([pending.key, pending.finalKey]);
  }

  /** The first bytes of a stored blob (fewer when it is shorter). */
  private async readHead({ key, size }: BlobInfo): Promise<Uint8Array> {
    if (size === 0) return new Uint8Array();
    const end = Math.min(SIGNATURE_BYTES, size) - 1;
    const content = await this.store.get(key, { range: { start: 0, end } });
    if (!content) throw errors.uploadMissing();
    const chunks: Buffer[] = [];
    for await (const chunk of content.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private async readFacts(pending: repo.PendingUploadRow, size: number) {
    const content = await this.store.get(pending.finalKey);
    if (!content) throw errors.uploadMissing();
    try {
      return await readAudioFacts(content.stream, {
        contentType: pending.contentType,
        size,
        fileName: pending.fileName,
      });
    } finally {
      content.stream.destroy();
    }
  }

  /**
   * A signed URL to fetch the file: `inline` for players and images, `attachment` to save it under its name.
   * With a `mark`, fetching it from its first byte runs the handler registered for the mark's topic.
   */
  async downloadUrl(
    file: Pick<repo.FileRow, 'key' | 'originalName' | 'contentType'>,
    options: { disposition?: 'inline' | 'attachment'; mark?: DownloadMark | undefined } = {},
  ): Promise<DownloadLink> {
    const request = {
      key: file.key,
      expiresInSeconds: this.settings.downloadUrlTtlSeconds,
      downloadName: file.originalName,
      disposition: options.disposition ?? 'attachment',
      contentType: file.contentType,
    };
    return options.mark ? this.marks.sign(request, options.mark) : this.store.createDownloadUrl(request);
  }

  /** One file of the team, or undefined. */
  get(teamId: number, fileId: number): Promise<repo.FileRow | undefined> {
    return repo.findFile(this.db, teamId, fileId);
  }

  /** The team's file stored under `key`, or undefined. */
  getByKey(teamId: number, key: string): Promise<repo.FileRow | undefined> {
    return repo.findFileByKey(this.db, teamId, key);
  }

  /** Files of the team by id (missing and other teams' ids are left out). */
  getMany(teamId: number, fileIds: number[]): Promise<repo.FileRow[]> {
    return repo.findFilesByIds(this.db, teamId, fileIds);
  }

  /** The files of many owners of one type, oldest first (in `tx` when given). */
  listOfOwners(
    teamId: number,
    ownerType: string,
    ownerIds: (string | number)[],
    options: { tx?: Db } = {},
  ): Promise<repo.FileRow[]> {
    return repo.listFilesOfOwners(options.tx ?? this.db, teamId, ownerType, ownerIds.map(String));
  }

  /** A page of one owner's registered files, newest first, each shown by `view`; keyset cursor on the id. */
  async pageOfOwner<T>(
    teamId: number,
    owner: FileOwner,
    page: { limit: number; cursor?: string | undefined },
    view: (file: repo.FileRow) => Promise<T>,
  ): Promise<{ items: T[]; nextCursor: string | null }> {
    const rows = await repo.listFilesOfOwner(this.db, teamId, ownerRef(owner), {
      limit: page.limit + 1,
      before: decodeIdCursor(page.cursor),
    });
    const result = toPage(rows, page.limit, (last) => last.id);
    return { items: await Promise.all(result.items.map(view)), nextCursor: result.nextCursor };
  }

  /** A pending (not yet registered) upload of the team by its id, or undefined. */
  getPending(teamId: number, id: number): Promise<repo.PendingUploadRow | undefined> {
    return repo.findPendingById(this.db, teamId, id);
  }

  /**
   * Hard delete: removes the rows at once (in `tx` when given) and their blobs right after — after the commit
   * when `tx` comes from transaction() or commitRegistration(), else within a minute by the blob-deletion job.
   * Returns the ids deleted.
   */
  async delete(teamId: number, fileIds: number[], options: { tx?: Db } = {}): Promise<number[]> {
    const deleted = await repo.deleteFiles(options.tx ?? this.db, teamId, fileIds);
    await this.afterDelete(
      options.tx,
      deleted.map((d) => d.key),
    );
    return deleted.map((d) => d.id);
  }

  /** Deletes every file of an owner but `keepId` (e.g. the banner just replaced); same rules as delete(). */
  async deleteOfOwner(
    teamId: number,
    owner: FileOwner,
    options: { tx?: Db; keepId?: number } = {},
  ): Promise<number[]> {
    const deleted = await repo.deleteFilesOfOwner(
      options.tx ?? this.db,
      teamId,
      ownerRef(owner),
      options.keepId,
    );
    await this.afterDelete(
      options.tx,
      deleted.map((d) => d.key),
    );
    return deleted.map((d) => d.id);
  }

  /** Deletes every file of many owners at once (`ids` per owner type); same rules as delete(). */
  async deleteOfOwners(
    teamId: number,
    owners: { type: string; ids: (string | number)[] }[],
    options: { tx?: Db } = {},
  ): Promise<number[]> {
    const db = options.tx ?? this.db;
    const sets = owners.map((o) => ({ type: o.type, ids: o.ids.map(String) }));
    // Upload URLs handed out for these owners can no longer be registered: their bytes go now, not at expiry.
    // Pending rows first: a registration holding one has to commit before this goes on, and the files are
    // then read afresh, so the file it added goes too (the other order would leave that file behind).
    const pendingKeys = await repo.deletePendingOfOwners(db, teamId, sets);
    const deleted = await repo.deleteFilesOfOwners(db, teamId, sets);
    await this.afterDelete(options.tx, [...deleted.map((d) => d.key), ...pendingKeys]);
    return deleted.map((d) => d.id);
  }

  /** Soft delete: the files stay (and count towards the quota) until `at`, then the purge job deletes them. */
  scheduleDelete(teamId: number, fileIds: number[], at: Date, options: { tx?: Db } = {}): Promise<number[]> {
    return repo.setDeleteAfter(options.tx ?? this.db, teamId, fileIds, at);
  }

  /** Undoes scheduleDelete (a restored resource keeps its files). */
  cancelScheduledDelete(teamId: number, fileIds: number[], options: { tx?: Db } = {}): Promise<number[]> {
    return repo.setDeleteAfter(options.tx ?? this.db, teamId, fileIds, null);
  }

  /** Abandons a pending upload (e.g. a stem the client gave up on): its row and any bytes go. */
  async discardPending(teamId: number, key: string, owner?: FileOwner): Promise<boolean> {
    const pending = await repo.findPendingByKey(this.db, teamId, key);
    if (!pending) return false;
    if (owner && (pending.ownerType !== owner.type || pending.ownerId !== String(owner.id))) return false;
    const removed = await repo.deletePending(this.db, teamId, pending.id);
    await this.drainDeletions([pending.key, pending.finalKey]);
    return removed;
  }

  /** The team's storage: bytes and files in total and per kind, the quota, open uploads and what they reserve. */
  async usage(teamId: number) {
    const row = await repo.storageUsage(this.db, teamId, this.clock.now());
    if (!row) throw errors.notFound('team');
    const byKind = { audio: empty(), image: empty(), video: empty(), document: empty() };
    for (const entry of row.byKind ?? []) {
      if (entry.kind in byKind) {
        byKind[entry.kind as FileKind] = { bytes: Number(entry.bytes), files: Number(entry.files) };
      }
    }
    return {
      plan: { id: row.planId, name: row.planName },
      quotaBytes: row.quotaBytes,
      usedBytes: row.usedBytes,
      availableBytes: Math.max(0, row.quotaBytes - row.usedBytes),
      fileCount: row.fileCount,
      pendingUploads: row.pendingUploads,
      reservedBytes: row.reservedBytes,
      byKind,
    };
  }

  /**
   * Removes blobs queued for deletion — only those of `keys` when given, else all — and answers how many
   * went; what fails stays queued for the job's next run.
   */
  drainDeletions(keys?: string[]): Promise<number> {
    return drainBlobDeletions(this.db, this.store, keys ? { keys } : {});
  }
}

function empty() {
  return { bytes: 0, files: 0 };
}
