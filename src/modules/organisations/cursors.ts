import { isKeyInt, isKeyText } from '../../shared/cursor-values.ts';
import { decodeCursor } from '../../shared/pagination.ts';

/** `[lower-cased name, id]`: the keyset of lists in alphabetical order (organisations, teams, places). */
export const decodeNameCursor = (cursor: string | undefined) =>
  decodeCursor(
    cursor,
    (v): v is [string, number] => Array.isArray(v) && v.length === 2 && isKeyText(v[0]) && isKeyInt(v[1]),
  );

/** `[integer, integer, id]`: keysets of two computed integers and an id (camps, prospects). */
export const decodeTripleCursor = (cursor: string | undefined) =>
  decodeCursor(
    cursor,
    (v): v is [number, number, number] =>
      Array.isArray(v) && v.length === 3 && v.every((part) => isKeyInt(part)),
  );
