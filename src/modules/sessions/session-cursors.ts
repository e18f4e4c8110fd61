import { isKeyInstant, isKeyInt } from '../../shared/cursor-values.ts';
import { errors } from '../../shared/errors.ts';
import { decodeCursor } from '../../shared/pagination.ts';
import type { SessionKey } from './sessions.repository.ts';

const isSessionKey = (value: unknown): value is SessionKey =>
  Array.isArray(value) && value.length === 2 && isKeyInstant(value[0]) && isKeyInt(value[1]) && value[1] > 0;

/** The position a session list's cursor holds; a cursor this area did not issue is 400. */
export const decodeSessionCursor = (cursor: string | undefined) => decodeCursor(cursor, isSessionKey);

/** The instants of `from`/`to` filters; a range that ends before it starts is 400. */
export function instantRange(query: { from?: string | undefined; to?: string | undefined }) {
  const from = query.from === undefined ? undefined : new Date(query.from);
  const to = query.to === undefined ? undefined : new Date(query.to);
  if (from && to && from > to)
    throw errors.validation([{ path: '/query/from', message: 'must not be after to' }]);
  return { from, to };
}
