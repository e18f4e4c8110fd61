import { describe, expect, it } from 'vitest';
import { growingLru } from './growing-lru.ts';

describe('growingLru', () => {
  it('holds at most maxEntries, forgetting the least recently used first', () => {
    const cache = growingLru<string, number>({ maxEntries: 3 });
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, i);
    cache.get('a');
    cache.set('d', 3);
    expect(cache.size).toBe(3);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
  });

  it('allocates nothing up front for its bound (a preallocating cache of 5,000,000 with a ttl takes 400 MB)', () => {
    const before = process.memoryUsage().heapUsed;
    const cache = growingLru<string, number>({ maxEntries: 5_000_000, ttl: 60_000 });
    cache.set('a', 1);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(20 * 1024 * 1024);
  });
});
