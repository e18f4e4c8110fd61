import { sqlState } from '../../shared/db-errors.ts';
import { errors } from '../../shared/errors.ts';

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Runs a write whose thread (or message) was found a moment ago: if it was deleted in between, the
 * write's foreign key refuses it, and the caller gets the 404 a moment later would have given.
 */
export async function goneAsNotFound<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (sqlState(error) === FOREIGN_KEY_VIOLATION) throw errors.notFound(what);
    throw error;
  }
}
