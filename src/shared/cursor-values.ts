import { storableText } from './text.ts';

/**
 * What a keyset cursor may hold. Cursors are not secret: anyone can write one, so each value must be one
 * the database takes (an int4 id, a timestamp PostgreSQL can store, text it can compare) or the cursor is
 * refused with 400 rather than failing the query.
 */

const INT4_MAX = 2_147_483_647;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** An integer column value: ids, positions. */
export const isKeyInt = (value: unknown): value is number =>
  Number.isSafeInteger(value) && Math.abs(value as number) <= INT4_MAX;

/** A finite number: a position in the audio, in seconds. */
export const isKeyNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < 1e12;

/** An instant as cursors write it (`toISOString`), between the years 1 and 9999. */
export function isKeyInstant(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_INSTANT.test(value)) return false;
  const year = Number(value.slice(0, 4));
  return year >= 1 && !Number.isNaN(Date.parse(value));
}

/** Text to compare against a column: bounded and storable. */
export const isKeyText = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= 1000 && storableText(value);

/** `[position, id]`: the keyset of lists kept in a chosen order. */
export const isPositionCursor = (value: unknown): value is [number, number] =>
  Array.isArray(value) && value.length === 2 && isKeyInt(value[0]) && isKeyInt(value[1]);
