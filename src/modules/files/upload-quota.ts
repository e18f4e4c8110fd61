import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import type { BlobBody } from '../../storage/blob-store.ts';
import { bodyChunks } from '../../storage/body-chunks.ts';
import { BlobTooLargeError } from '../../storage/errors.ts';
import * as repo from './files.repository.ts';

/** How far ahead a PUT of unknown length claims quota: one short transaction per this many bytes received. */
export const CLAIM_STEP_BYTES = 8 * 1024 * 1024;

/** Why a file does not fit in the team's storage, with what is used and what open uploads hold. */
export function quotaMessage(usedBytes: number, quotaBytes: number, size: number, reservedBytes = 0): string {
  const reserved = reservedBytes > 0 ? ` and ${reservedBytes} are reserved by open uploads` : '';
  return (
    `This file (${size} bytes) does not fit in the team's storage: ${usedBytes} of ${quotaBytes} bytes ` +
    `are used${reserved}. Delete files, register or discard open uploads, or move to a larger plan`
  );
}

/**
 * The quota an upload without a declared size takes as its bytes arrive. Each claim is decided in one
 * transaction holding the upload's row and then the team's storage counter (the order registration takes
 * them in), so two PUTs, in one process or two, never both take the last free bytes.
 */
export class UploadQuota {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly maxOpenUploadsPerTeam: number,
  ) {}

  /**
   * Claims at least `needed` and up to `wanted` more bytes for the open upload `uploadId`; answers what was
   * granted. 413 quota_exceeded when fewer than `needed` are free; 409 too_many_open_uploads when the upload
   * held nothing yet and the team's open uploads that hold quota are at the cap.
   */
  async claim(uploadId: number, needed: number, wanted: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const upload = await repo.lockOpenPending(tx, uploadId, now);
      if (!upload) throw errors.uploadClosed();
      const room = await repo.lockStorage(tx, upload.teamId);
      if (!room) throw errors.notFound('team');
      const open = await repo.openUploadsOf(tx, upload.teamId, now);
      if (!upload.holds && open.count >= this.maxOpenUploadsPerTeam) {
        throw errors.tooManyOpenUploads(this.maxOpenUploadsPerTeam);
      }
      const free = room.quotaBytes - room.usedBytes - open.reservedBytes;
      if (free < needed) {
        throw errors.quotaExceeded(quotaMessage(room.usedBytes, room.quotaBytes, needed, open.reservedBytes));
      }
      const granted = Math.min(wanted, free);
      await repo.addClaim(tx, uploadId, granted);
      return granted;
    });
  }

  /** A claim for one PUT to the upload `uploadId`, whose URL takes at most `maxBytes`. */
  forPut(uploadId: number, maxBytes: number): PutClaim {
    return new PutClaim(this, uploadId, maxBytes);
  }

  /** Hands back what an ended PUT claimed and did not store. */
  release(claim: PutClaim): Promise<void> {
    return repo.releaseClaim(this.db, claim.uploadId, claim.claimed);
  }
}

/** What one PUT has claimed so far; the body passes through `meter`, which claims ahead of the bytes. */
export class PutClaim {
  claimed = 0;

  constructor(
    private readonly quota: UploadQuota,
    readonly uploadId: number,
    private readonly maxBytes: number,
  ) {}

  /** Claims `bytes` at once: a PUT that announced its length is refused before a byte of it is read. */
  async claimUpFront(bytes: number): Promise<void> {
    if (bytes > this.claimed) await this.claimUpTo(bytes);
  }

  /** The body, claiming quota before each chunk passes on; stops (and stores nothing) past the free bytes. */
  async *meter(body: BlobBody): AsyncGenerator<Uint8Array> {
    let received = 0;
    for await (const chunk of bodyChunks(body)) {
      received += chunk.byteLength;
      if (received > this.maxBytes) throw new BlobTooLargeError(this.maxBytes);
      if (received > this.claimed) await this.claimUpTo(received);
      yield chunk;
    }
  }

  private async claimUpTo(total: number): Promise<void> {
    const needed = total - this.claimed;
    const wanted = Math.max(needed, Math.min(CLAIM_STEP_BYTES, this.maxBytes - this.claimed));
    this.claimed += await this.quota.claim(this.uploadId, needed, wanted);
  }
}
