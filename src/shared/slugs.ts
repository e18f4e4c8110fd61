import { randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { type AnyColumn, and, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import slugify from 'slugify';
import type { Db } from '../db/client.ts';
import { sqlState } from './db-errors.ts';
import { withoutTrailing } from './text.ts';

/** Lower-case ASCII letters, digits and inner hyphens, 1 to 64 characters. */
export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$';

export const Slug = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: SLUG_PATTERN,
  description: 'Lower-case letters a-z, digits and inner hyphens; 1 to 64 characters',
});

// A generated slug leaves room for a `-<n>` suffix within the 64 characters.
const BASE_LENGTH = 50;
const MAX_SUFFIX = 999_999_999;

/** The slug of a name: ASCII transliteration, lower-case, hyphens; `fallback` when nothing usable is left. */
export function slugFrom(text: string, fallback: string): string {
  const slug = slugify(text, { lower: true, strict: true, trim: true })
    .replace(/[^a-z0-9-]+/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-+/, '')
    .slice(0, BASE_LENGTH);
  return withoutTrailing(slug, (c) => c === '-') || fallback;
}

/** Where the slugs of a table live, and which of its rows share one namespace (a team's, or all). */
export type SlugScope = { table: PgTable; column: AnyColumn; within?: SQL | undefined };

/**
 * The first free slug of `base`'s family in the scope: `base` itself, else `base-<n>` one above the highest
 * `n` in use.
 */
async function nextFreeSlug(db: Db, scope: SlugScope, base: string): Promise<string> {
  const family = `^${base}-[0-9]{1,9}$`;
  const [row] = await db
    .select({
      highest: sql<number | null>`max(case when ${scope.column} = ${base} then 1
        else substring(${scope.column} from '-([0-9]{1,9})$')::integer end)`.mapWith(Number),
    })
    .from(scope.table)
    .where(and(scope.within, sql`(${scope.column} = ${base} or ${scope.column} ~ ${family})`));
  const highest = row?.highest ?? 0;
  if (!highest) return base;
  return highest < MAX_SUFFIX ? `${base}-${highest + 1}` : randomSlug(base);
}

const randomSlug = (base: string) => `${base}-${randomBytes(4).toString('hex')}`;

const ATTEMPTS = 5;

/**
 * Inserts a row under the first free slug of `base`'s family. A concurrent insert that takes the same slug
 * first makes this one's unique index refuse it: the insert runs in a savepoint and is tried again with the
 * next free slug, so the surrounding transaction goes on.
 */
export async function insertWithFreeSlug<T>(
  db: Db,
  scope: SlugScope,
  base: string,
  insert: (db: Db, slug: string) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const slug = attempt < ATTEMPTS ? await nextFreeSlug(db, scope, base) : randomSlug(base);
    try {
      return await db.transaction((savepoint) => insert(savepoint, slug));
    } catch (error) {
      if (attempt >= ATTEMPTS || sqlState(error) !== '23505') throw error;
    }
  }
}
