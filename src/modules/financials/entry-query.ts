import { isKeyInt } from '../../shared/cursor-values.ts';
import { errors } from '../../shared/errors.ts';
import { decodeCursor } from '../../shared/pagination.ts';
import type { EntryKey } from './financials.repository.ts';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day PostgreSQL takes: a real date (no 30 February) from the year 1 on. */
function isKeyDate(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DATE.test(value) || value < '0001') return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

const isEntryKey = (value: unknown): value is EntryKey =>
  Array.isArray(value) && value.length === 2 && isKeyDate(value[0]) && isKeyInt(value[1]) && value[1] > 0;

/** The position a list or pipeline cursor holds; a cursor this area did not issue is 400. */
export const decodeEntryCursor = (cursor: string | undefined) => decodeCursor(cursor, isEntryKey);

export type DateRange = { from?: string | undefined; to?: string | undefined };

/** The inclusive `from`/`to` of a query; a range that ends before it starts is 400. */
export function dateRangeOf(query: DateRange): DateRange {
  if (query.from !== undefined && query.to !== undefined && query.from > query.to)
    throw errors.validation([{ path: '/query/from', message: 'must not be after to' }]);
  return { from: query.from, to: query.to };
}

/** Today's date in UTC, the default day of a new entry. */
export const today = (now: Date) => now.toISOString().slice(0, 10);
