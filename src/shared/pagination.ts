import { isKeyInt } from './cursor-values.ts';
import { errors } from './errors.ts';

/** Opaque keyset cursors: base64url of a small JSON value. */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

export function decodeCursor<T>(
  cursor: string | undefined,
  isValid: (value: unknown) => value is T,
): T | undefined {
  if (cursor === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (isValid(value)) return value;
  } catch {
    // falls through to the validation error
  }
  throw errors.validation([{ path: '/query/cursor', message: 'is not a cursor this endpoint issued' }]);
}

const isPositiveInt = (value: unknown): value is number => isKeyInt(value) && value > 0;

/** Cursor over a descending or ascending integer id. */
export const decodeIdCursor = (cursor: string | undefined) => decodeCursor(cursor, isPositiveInt);

/** Splits a `limit + 1` query result into a page and the cursor of the next one. */
export function toPage<T, C>(rows: T[], limit: number, cursorOf: (last: T) => C) {
  const items = rows.slice(0, limit);
  return {
    items,
    nextCursor:
      rows.length > limit && items.length > 0 ? encodeCursor(cursorOf(items[items.length - 1]!)) : null,
  };
}

export const DEFAULT_PAGE_LIMIT = 50;

/** Whether a list request asked for `total` (`?count=true`, see `CountQuery`). */
export const wantsTotal = (query: { count?: 'true' | 'false' | undefined }) => query.count === 'true';

/**
 * A page with the `total` of the whole filtered list added when `count` is set: `countAll` (a query of the
 * list's own filters, without its cursor and limit) runs only then.
 */
export async function withTotal<P extends object>(
  page: P,
  count: boolean | undefined,
  countAll: () => Promise<number>,
): Promise<P & { total?: number }> {
  return count ? { ...page, total: await countAll() } : page;
}

/** A part of an in-memory keyset: lists held whole compare their keys part by part. */
export type KeyPart = number | string;
type KeyShape = readonly ('number' | 'string')[];

/** Keys part by part: numbers by value, text by code unit. */
export function compareKeys(a: readonly KeyPart[], b: readonly KeyPart[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}

const hasShape = (value: unknown, shape: KeyShape): value is KeyPart[] =>
  Array.isArray(value) &&
  value.length === shape.length &&
  value.every((part, i) =>
    shape[i] === 'number'
      ? typeof part === 'number' && Number.isFinite(part)
      : typeof part === 'string' && part.length <= 1000,
  );

/**
 * A keyset page of a list read whole (short, bounded lists worked out in memory): items in the order of their
 * `key` (unique per item, parts of the types `shape` names) by `compare`, those after the cursor's key, at most
 * `limit`. The cursor is the last item's key, so a page never repeats or skips an item when others come or go
 * between requests.
 */
export function pageOfList<T, K extends KeyPart[]>(
  items: readonly T[],
  page: { limit: number; cursor?: string | undefined },
  order: { key: (item: T) => K; shape: KeyShape; compare?: (a: K, b: K) => number },
) {
  const compare = order.compare ?? compareKeys;
  const after = decodeCursor(page.cursor, (value: unknown): value is K => hasShape(value, order.shape));
  const keyed = items.map((item) => ({ item, key: order.key(item) })).sort((a, b) => compare(a.key, b.key));
  const rest = after === undefined ? keyed : keyed.filter((k) => compare(k.key, after) > 0);
  const result = toPage(rest.slice(0, page.limit + 1), page.limit, (last) => last.key);
  return { items: result.items.map((k) => k.item), nextCursor: result.nextCursor };
}

/** The page a list route asks for: its `limit` (50 when absent) and `cursor`. */
export function pageOf(query: { limit?: number | undefined; cursor?: string | undefined }) {
  return { limit: query.limit ?? DEFAULT_PAGE_LIMIT, cursor: query.cursor };
}

/** The page a counted list route asks for: `pageOf`, and whether to add `total` (`?count=true`). */
export function countedPageOf(query: {
  limit?: number | undefined;
  cursor?: string | undefined;
  count?: 'true' | 'false' | undefined;
}) {
  return { ...pageOf(query), count: wantsTotal(query) };
}
