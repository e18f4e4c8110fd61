import { LRUCache } from 'lru-cache';

/**
 * An LRU cache of at most `maxEntries` entries whose storage grows with what it holds. lru-cache given
 * `max` allocates every slot up front (about 44 bytes an entry, 80 with a ttl: 4 MB for 50,000 with a ttl)
 * in each instance, used or not; bounded by `maxSize` with every entry counting one, it allocates as
 * entries arrive.
 */
export function growingLru<K extends {}, V extends {}>(options: {
  maxEntries: number;
  ttl?: number;
}): LRUCache<K, V> {
  return new LRUCache<K, V>({
    maxSize: options.maxEntries,
    sizeCalculation: () => 1,
    ...(options.ttl === undefined ? {} : { ttl: options.ttl }),
  });
}
