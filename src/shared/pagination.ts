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

/** The page a list route asks for: its `limit` (50 when absent) and `cursor`. */
export function pageOf(query: { limit?: number | undefined; cursor?: string | undefined }) {
  return { limit: query.limit ?? DEFAULT_PAGE_LIMIT, cursor: query.cursor };
}
