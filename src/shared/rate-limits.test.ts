import { describe, expect, it } from 'vitest';
import { RateLimits } from './rate-limits.ts';

describe('in-memory rate limits', () => {
  it('hold at most the given number of keys, forgetting the least recently used', async () => {
    const limits = new RateLimits(undefined, undefined, 5);
    for (let i = 0; i < 50; i++) await limits.consume('bounded', `key-${i}`, 3, 60);
    expect(limits.memoryKeys('bounded')).toBe(5);
    // The newest keys keep their counts; the first ones start over.
    expect((await limits.consume('bounded', 'key-49', 3, 60)).remaining).toBe(1);
    expect((await limits.consume('bounded', 'key-0', 3, 60)).remaining).toBe(2);
    expect(limits.memoryKeys('bounded')).toBe(5);
  });

  it('count a fixed window: refused past the points, a refund gives one back, a reset starts over', async () => {
    const limits = new RateLimits();
    const take = () => limits.consume('window', 'k', 2, 60);
    expect(await take()).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(await take()).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await take();
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.resetSeconds).toBeLessThanOrEqual(60);
    await limits.refund('window', 'k', 2, 60);
    expect((await take()).allowed).toBe(false);
    await limits.reset('window', 'k', 2, 60);
    expect(limits.memoryKeys('window')).toBe(0);
    expect(await take()).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('forget a key when its window ends', async () => {
    const limits = new RateLimits();
    expect((await limits.consume('short', 'k', 1, 1)).allowed).toBe(true);
    expect((await limits.consume('short', 'k', 1, 1)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(limits.memoryKeys('short')).toBe(0);
    expect((await limits.consume('short', 'k', 1, 1)).allowed).toBe(true);
  });

  it('refund nothing for a key they do not hold (no negative counts)', async () => {
    const limits = new RateLimits();
    await limits.refund('empty', 'k', 1, 60);
    expect(limits.memoryKeys('empty')).toBe(0);
    expect((await limits.consume('empty', 'k', 1, 60)).allowed).toBe(true);
    expect((await limits.consume('empty', 'k', 1, 60)).allowed).toBe(false);
  });
});
