import { isKeyText } from '../../shared/cursor-values.ts';
import { decodeCursor } from '../../shared/pagination.ts';

/** What a list endpoint asks for: a page size and, after the first page, the cursor it was given. */
export type PageInput = { limit: number; cursor?: string | undefined };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** `[microseconds since the epoch, user id]`: the keyset of members in join order. */
export const decodeJoinedCursor = (cursor: string | undefined) =>
  decodeCursor(
    cursor,
    (v): v is [number, string] =>
      Array.isArray(v) && v.length === 2 && Number.isSafeInteger(v[0]) && isUuid(v[1]),
  );

/** `[sort text, user id]`: the keyset of people in alphabetical order. */
export const decodeNameCursor = (cursor: string | undefined) =>
  decodeCursor(
    cursor,
    (v): v is [string, string] => Array.isArray(v) && v.length === 2 && isKeyText(v[0]) && isUuid(v[1]),
  );

/** A lower-cased e-mail address (unique per user). */
export const decodeEmailCursor = (cursor: string | undefined) => decodeCursor(cursor, isKeyText);
