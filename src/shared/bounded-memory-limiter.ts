import type { LRUCache } from 'lru-cache';
import { RateLimiterCompatibleAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { growingLru } from './growing-lru.ts';

type Window = { consumed: number; endsAt: number };

/**
 * Fixed-window counters in this process's memory that hold at most `maxKeys` keys: past that, the least
 * recently used key is forgotten, so a flood of distinct keys (e-mails, addresses) cannot grow memory
 * without bound. Otherwise it counts like rate-limiter-flexible's RateLimiterMemory, and it can stand in
 * for Redis as a RateLimiterRedis insurance limiter.
 */
export class BoundedMemoryLimiter extends RateLimiterCompatibleAbstract {
  override readonly keyPrefix: string;
  // Blocking and even spreading are not used; they are fields because an insured limiter sets them.
  override blockDuration = 0;
  override execEvenly = false;
  private readonly windows: LRUCache<string, Window>;
  private readonly durationMs: number;

  constructor(
    private readonly options: { keyPrefix: string; points: number; duration: number; maxKeys: number },
  ) {
    super();
    this.keyPrefix = options.keyPrefix;
    this.durationMs = options.duration * 1000;
    this.windows = growingLru({ maxEntries: options.maxKeys, ttl: this.durationMs });
  }

  /** How many keys are held now. */
  get size(): number {
    this.windows.purgeStale();
    return this.windows.size;
  }

  override consume(key: string | number, points = 1): Promise<RateLimiterRes> {
    const res = this.add(String(key), points);
    return res.consumedPoints > this.options.points ? Promise.reject(res) : Promise.resolve(res);
  }

  override penalty(key: string | number, points = 1): Promise<RateLimiterRes> {
    return Promise.resolve(this.add(String(key), points));
  }

  override reward(key: string | number, points = 1): Promise<RateLimiterRes> {
    const window = this.live(String(key));
    if (!window) return Promise.resolve(new RateLimiterRes(this.options.points, 0, 0));
    return Promise.resolve(this.add(String(key), -points));
  }

  override get(key: string | number): Promise<RateLimiterRes | null> {
    const window = this.live(String(key));
    return Promise.resolve(window ? this.result(window, false) : null);
  }

  override set(key: string | number, points: number, secDuration: number): Promise<RateLimiterRes> {
    const durationMs = (secDuration > 0 ? secDuration : this.options.duration) * 1000;
    const window = { consumed: points, endsAt: Date.now() + durationMs };
    this.windows.set(String(key), window, { ttl: durationMs });
    return Promise.resolve(this.result(window, true));
  }

  override block(key: string | number, secDuration: number): Promise<RateLimiterRes> {
    return this.set(key, this.options.points + 1, secDuration);
  }

  override delete(key: string | number): Promise<boolean> {
    return Promise.resolve(this.windows.delete(String(key)));
  }

  private live(key: string): Window | undefined {
    const window = this.windows.get(key);
    return window && window.endsAt > Date.now() ? window : undefined;
  }

  private add(key: string, points: number): RateLimiterRes {
    const now = Date.now();
    const current = this.live(key);
    const window = current ?? { consumed: 0, endsAt: now + this.durationMs };
    window.consumed += points;
    this.windows.set(key, window, { ttl: window.endsAt - now });
    return this.result(window, current === undefined);
  }

  private result(window: Window, first: boolean): RateLimiterRes {
    const remaining = Math.max(0, this.options.points - window.consumed);
    return new RateLimiterRes(remaining, Math.max(0, window.endsAt - Date.now()), window.consumed, first);
  }
}
