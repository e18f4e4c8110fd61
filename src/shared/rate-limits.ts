import type { Redis } from 'ioredis';
import { type RateLimiterLike, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { BoundedMemoryLimiter } from './bounded-memory-limiter.ts';

export type LimitResult = { allowed: boolean; limit: number; remaining: number; resetSeconds: number };

// A counter lives on the request's path: a Redis that stops answering must not hold requests for long.
export const DEFAULT_REDIS_TIMEOUT_MS = 500;
// Connecting is off the request path (start-up), so it may take longer than one command.
const READY_TIMEOUT_FACTOR = 4;
const MIN_READY_TIMEOUT_MS = 2000;
/** Keys one in-memory counter holds at most (about 20 MB); the least recently used go first. */
export const DEFAULT_MAX_MEMORY_KEYS = 100_000;

/**
 * Fixed-window counters, in memory by default or in Redis so several processes share one count.
 * With Redis, an in-memory limiter takes over while Redis does not answer (down, unreachable or stalled).
 * In-memory counters are bounded (`maxMemoryKeys` per limiter), so distinct keys cannot grow memory.
 */
export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterLike>();
  private readonly memory = new Map<string, BoundedMemoryLimiter>();

  constructor(
    private readonly redis?: Redis,
    private readonly readyTimeoutMs = MIN_READY_TIMEOUT_MS,
    private readonly maxMemoryKeys = DEFAULT_MAX_MEMORY_KEYS,
  ) {}

  /** Counters in Redis at `redisUrl`, or in this process's memory without one (the client then never loads). */
  static async connect(
    redisUrl: string | undefined,
    timeoutMs = DEFAULT_REDIS_TIMEOUT_MS,
  ): Promise<RateLimits> {
    if (!redisUrl) return new RateLimits();
    const { Redis } = await import('ioredis');
    const redis = new Redis(redisUrl, {
      maxRetriesPerRequest: 1,
      // Fail at once while disconnected (the in-memory insurance answers), never queue.
      enableOfflineQueue: false,
      commandTimeout: timeoutMs,
    });
    redis.on('error', () => {
      // Reconnects by itself; limits fall back to memory meanwhile.
    });
    return new RateLimits(redis, Math.max(MIN_READY_TIMEOUT_MS, READY_TIMEOUT_FACTOR * timeoutMs));
  }

  /**
   * Waits until Redis takes commands, so the first requests of a new process already share the count;
   * true once connected (or without Redis), false when Redis failed to connect or was not ready in time.
   */
  ready(timeoutMs = this.readyTimeoutMs): Promise<boolean> {
    const redis = this.redis;
    if (!redis || redis.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const settle = (connected: boolean) => {
        clearTimeout(timer);
        redis.off('ready', onReady).off('error', onFailure).off('end', onFailure);
        resolve(connected);
      };
      const onReady = () => settle(true);
      const onFailure = () => settle(false);
      const timer = setTimeout(onFailure, timeoutMs);
      redis.once('ready', onReady).once('error', onFailure).once('end', onFailure);
    });
  }

  /** Whether Redis answers a PING within `timeoutMs`; undefined when the counters are in memory only. */
  async ping(timeoutMs: number): Promise<boolean | undefined> {
    const redis = this.redis;
    if (!redis) return undefined;
    if (redis.status !== 'ready') return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([redis.ping().then((answer) => answer === 'PONG'), late]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    const redis = this.redis;
    if (!redis) return;
    if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
    else redis.disconnect();
  }

  /** Keys held in this process's memory by the limiters named `name` (the Redis insurance included). */
  memoryKeys(name: string): number {
    let keys = 0;
    for (const [id, limiter] of this.memory) if (id.startsWith(`${name}:`)) keys += limiter.size;
    return keys;
  }

  private limiter(name: string, points: number, durationSeconds: number): RateLimiterLike {
    const id = `${name}:${points}:${durationSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const options = { keyPrefix: `tmw:rl:${id}`, points, duration: durationSeconds };
      const memory = new BoundedMemoryLimiter({ ...options, maxKeys: this.maxMemoryKeys });
      this.memory.set(id, memory);
      limiter = this.redis
        ? new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: memory })
        : memory;
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  /**
   * Counts `cost` events (default one) for `key`; `allowed` is false once more than `points` events happened
   * in the window.
   */
  async consume(
    name: string,
    key: string,
    points: number,
    durationSeconds: number,
    cost = 1,
  ): Promise<LimitResult> {
    try {
      const res = await this.limiter(name, points, durationSeconds).consume(key, cost);
      return toResult(res, points, true);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return toResult(rejection, points, false);
      throw rejection;
    }
  }

  /** Gives back `cost` counted events (default one) of the current window. */
  async refund(name: string, key: string, points: number, durationSeconds: number, cost = 1): Promise<void> {
    await this.limiter(name, points, durationSeconds).reward(key, cost);
  }

  async reset(name: string, key: string, points: number, durationSeconds: number): Promise<void> {
    await this.limiter(name, points, durationSeconds).delete(key);
  }
}

function toResult(res: RateLimiterRes, limit: number, allowed: boolean): LimitResult {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}
