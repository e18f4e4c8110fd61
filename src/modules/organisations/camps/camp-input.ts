import type { Db } from '../../../db/client.ts';
import { camps } from '../../../db/schema/index.ts';
import { sqlState } from '../../../shared/db-errors.ts';
import { errors } from '../../../shared/errors.ts';
import { insertWithFreeSlug, slugFrom } from '../../../shared/slugs.ts';
import { type CampRow, insertCamp } from './camps.repository.ts';

const ONLY_DIGITS = /^[0-9]+$/;
export const SLUG_TAKEN = 'Another camp has this slug';

/** Why a camp's dates or chosen slug cannot be taken, with the field it concerns; undefined when they can. */
export function campInputProblem(input: {
  startsOn: string;
  endsOn: string;
  slug?: string | undefined;
}): { field: 'slug' | 'endsOn'; message: string } | undefined {
  if (input.slug !== undefined && ONLY_DIGITS.test(input.slug))
    return { field: 'slug', message: 'must not be only digits (it would read as an id)' };
  if (input.endsOn < input.startsOn) return { field: 'endsOn', message: 'must be on or after startsOn' };
  return undefined;
}

/** The 400 of a camp input problem, if there is one. */
export function checkCampInput(input: Parameters<typeof campInputProblem>[0]): void {
  const problem = campInputProblem(input);
  if (problem) throw errors.validation([{ path: `/body/${problem.field}`, message: problem.message }]);
}

/** The slug a camp gets from its name: never only digits, so `/camps/{camp}` tells it from an id. */
function slugOfName(name: string): string {
  const base = slugFrom(name, 'camp');
  return ONLY_DIGITS.test(base) ? `camp-${base}` : base;
}

export type NewCamp = Omit<typeof camps.$inferInsert, 'id' | 'slug'>;

/**
 * Inserts a camp under its chosen slug (409 when another camp has it) or, without one, the first free slug
 * made from its name.
 */
export async function insertCampWithSlug(tx: Db, values: NewCamp, slug?: string): Promise<CampRow> {
  if (slug === undefined)
    return insertWithFreeSlug(tx, { table: camps, column: camps.slug }, slugOfName(values.name), (db, free) =>
      insertCamp(db, { ...values, slug: free }),
    );
  try {
    return await tx.transaction((savepoint) => insertCamp(savepoint, { ...values, slug }));
  } catch (error) {
    if (sqlState(error) === '23505') throw errors.conflict(SLUG_TAKEN);
    throw error;
  }
}
