import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS, type Lock, type Locker, MemoryLocker, type RequestRelease } from '@tus/server';
import type postgres from 'postgres';

// Namespace of the advisory locks held on resumable uploads (the second key is a hash of the upload id).
const RESUMABLE_LOCK_NAMESPACE = 7_305_117;
const RETRY_MS = 50;

/**
 * One writer per resumable upload across every process sharing the store. Within a process the tus memory
 * locker serialises requests (and asks the holder to stop when a newer request for the upload comes); with
 * PostgreSQL a session advisory lock, held on a reserved connection for as long as the request writes, keeps
 * another process off the same upload. An embedded database has one process per data directory, so the
 * memory locker is all it needs.
 */
export class UploadLocker implements Locker {
  readonly #memory: MemoryLocker;

  constructor(
    private readonly sql: postgres.Sql | undefined,
    private readonly timeoutMs: number,
  ) {
    this.#memory = new MemoryLocker({ acquireLockTimeout: timeoutMs });
  }

  newLock(id: string): Lock {
    return new UploadLock(id, this.#memory.newLock(id), this.sql, this.timeoutMs);
  }
}

class UploadLock implements Lock {
  #reserved: postgres.ReservedSql | undefined;

  constructor(
    private readonly id: string,
    private readonly local: Lock,
    private readonly sql: postgres.Sql | undefined,
    private readonly timeoutMs: number,
  ) {}

  async lock(signal: AbortSignal, cancelReq: RequestRelease): Promise<void> {
    await this.local.lock(signal, cancelReq);
    if (!this.sql) return;
    try {
      this.#reserved = await this.#acquire(this.sql, signal);
    } catch (error) {
      await this.local.unlock();
      throw error;
    }
  }

  async unlock(): Promise<void> {
    const reserved = this.#reserved;
    this.#reserved = undefined;
    try {
      if (reserved) {
        await reserved`select pg_advisory_unlock(${RESUMABLE_LOCK_NAMESPACE}::integer, hashtext(${this.id}))`;
      }
    } finally {
      reserved?.release();
      await this.local.unlock();
    }
  }

  async #acquire(sql: postgres.Sql, signal: AbortSignal): Promise<postgres.ReservedSql> {
    const reserved = await sql.reserve();
    const deadline = Date.now() + this.timeoutMs;
    try {
      for (;;) {
        const [row] = await reserved<{ locked: boolean }[]>`
          select pg_try_advisory_lock(${RESUMABLE_LOCK_NAMESPACE}::integer, hashtext(${this.id})) as locked`;
        if (row?.locked) return reserved;
        if (signal.aborted || Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
        await sleep(RETRY_MS);
      }
    } catch (error) {
      reserved.release();
      throw error;
    }
  }
}
