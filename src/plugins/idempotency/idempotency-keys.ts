import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import {
  claimAbandoned,
  claimExpired,
  findKey,
  insertClaim,
  type KeyOf,
  releaseClaim,
  renewClaim,
  type StoredAnswer,
  storeAnswer,
} from './idempotency.repository.ts';

export type IdempotencySettings = {
  /** How long a claim holds without renewal; a running request renews it every third of it. */
  leaseMs: number;
  /** How long a duplicate waits for the first request to answer before 409 `idempotency_key_in_use`. */
  maxWaitMs: number;
  /** How long an answer is replayed, from the first request. */
  ttlMs: number;
};

export const IDEMPOTENCY_DEFAULTS: IdempotencySettings = {
  leaseMs: 30_000,
  maxWaitMs: 5_000,
  ttlMs: 24 * 60 * 60_000,
};

const FIRST_PAUSE_MS = 10;
const MAX_PAUSE_MS = 200;
/** What a 409 `idempotency_key_in_use` suggests: the first request may answer any moment. */
const RETRY_AFTER_SECONDS = 1;
/** A request still running after this long is presumed stuck: its lease is no longer renewed. */
const MAX_RENEWAL_MS = 15 * 60_000;

export type Begun = { kind: 'run'; claim: RunningClaim } | { kind: 'replay'; answer: StoredAnswer };

const plus = (date: Date, ms: number) => new Date(date.getTime() + ms);

/**
 * Requests carrying an `Idempotency-Key`, coordinated through the `idempotency_keys` table so that every
 * process sharing the database agrees: the first one claims the key and runs, a duplicate waits for its
 * answer and replays it, and a claim whose process died is taken over once its lease has passed.
 */
export class IdempotencyKeys {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: IdempotencySettings,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /**
   * Claims the key for this request (`run`), or answers the stored answer of the same request (`replay`).
   * 409 `idempotency_key_reused` when the key belongs to another request, 409 `idempotency_key_in_use` when
   * the first request is still running after the wait.
   */
  async begin(id: KeyOf, requestHash: string): Promise<Begun> {
    const waitUntil = performance.now() + this.settings.maxWaitMs;
    let pause = FIRST_PAUSE_MS;
    for (let round = 0; ; round++) {
      if (round > 0 && performance.now() >= waitUntil) throw errors.idempotencyKeyInUse(RETRY_AFTER_SECONDS);
      const now = this.clock.now();
      const claim = {
        requestHash,
        now,
        lockedUntil: plus(now, this.settings.leaseMs),
        expiresAt: plus(now, this.settings.ttlMs),
      };
      if (await insertClaim(this.db, id, claim)) return this.running(id, claim.lockedUntil);
      const row = await findKey(this.db, id);
      // Released (its request failed) between the two statements: claim it afresh.
      if (!row) continue;
      if (row.expiresAt <= now) {
        if (await claimExpired(this.db, id, claim)) return this.running(id, claim.lockedUntil);
        continue;
      }
      if (row.requestHash !== requestHash) throw errors.idempotencyKeyReused();
      if (row.responseStatus !== null) {
        return {
          kind: 'replay',
          answer: {
            status: row.responseStatus,
            headers: row.responseHeaders ?? {},
            body: row.responseBody ?? '',
          },
        };
      }
      if (!row.lockedUntil || row.lockedUntil <= now) {
        if (await claimAbandoned(this.db, id, claim)) return this.running(id, claim.lockedUntil);
        continue;
      }
      const left = waitUntil - performance.now();
      if (left <= 0) throw errors.idempotencyKeyInUse(RETRY_AFTER_SECONDS);
      await sleep(Math.min(pause, left));
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    }
  }

  private running(id: KeyOf, lockedUntil: Date): Begun {
    return {
      kind: 'run',
      claim: new RunningClaim(this.db, this.clock, id, lockedUntil, this.settings.leaseMs, this.onError),
    };
  }
}

/**
 * The claim of the request that runs. Its lease (`lockedUntil`, also the fencing token every write checks)
 * is renewed while the handler runs, so only a process that died loses it; it ends with the answer stored
 * or the row released.
 */
export class RunningClaim {
  private settledState = false;
  /** Renewals and the final write, one at a time, each with the lease the previous one left. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly renewUntil = performance.now() + MAX_RENEWAL_MS;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly id: KeyOf,
    private lockedUntil: Date,
    private readonly leaseMs: number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.heartbeat = setInterval(() => void this.serially(() => this.renew()), leaseMs / 3);
    this.heartbeat.unref();
  }

  /** Whether the answer was stored or the claim released (or that is under way). */
  get settled(): boolean {
    return this.settledState;
  }

  /** Stores the answer for replay; false when the claim had been lost (taken over) meanwhile. */
  store(answer: StoredAnswer): Promise<boolean> {
    this.settle();
    return this.serially(() => storeAnswer(this.db, this.id, this.lockedUntil, answer));
  }

  /** Gives the key up without an answer, so a retry runs. */
  release(): Promise<void> {
    this.settle();
    return this.serially(() => releaseClaim(this.db, this.id, this.lockedUntil));
  }

  private settle(): void {
    this.settledState = true;
    clearInterval(this.heartbeat);
  }

  private async renew(): Promise<void> {
    if (this.settledState) return;
    if (performance.now() > this.renewUntil) {
      clearInterval(this.heartbeat);
      return;
    }
    try {
      const next = plus(this.clock.now(), this.leaseMs);
      if (await renewClaim(this.db, this.id, this.lockedUntil, next)) this.lockedUntil = next;
      else clearInterval(this.heartbeat);
    } catch (error) {
      this.onError(error);
    }
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const done = this.queue.then(work);
    this.queue = done.catch(() => {});
    return done;
  }
}
