import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * The one form of an e-mail address that is stored, looked up, matched and throttled: trimmed,
 * NFKC-normalised and case-folded. Fullwidth letters, compatibility characters (the Kelvin sign, the
 * long s) and case variants all name one address. For an ASCII address this is its lower case.
 */
export function normaliseEmail(email: string): string {
  // Through upper case folds what lower case alone leaves apart (ẞ, ß and ss; ς and σ).
  return email.normalize('NFKC').trim().toLowerCase().toUpperCase().toLowerCase().normalize('NFKC');
}

/**
 * SQL: the stored address in `column` is `email`. Stored addresses are normalised, except older ones that
 * kept their ASCII capitals: `lower()` covers those and is what the unique indexes are built on.
 */
export function sameEmail(column: AnyPgColumn, email: string): SQL {
  return sql`lower(${column}) = ${normaliseEmail(email)}`;
}
