import { type ErrorDetail, errors } from '../../shared/errors.ts';

type Entry = { id: number; order: number };

/** Repeated ids or orders in a reorder request (checked before anything is read). */
export function repeatedEntries(entries: Entry[], path: string, idField: string): ErrorDetail[] {
  const ids = new Set<number>();
  const orders = new Set<number>();
  const problems: ErrorDetail[] = [];
  entries.forEach((e, i) => {
    if (ids.has(e.id)) problems.push({ path: `${path}/${i}/${idField}`, message: 'is listed twice' });
    if (orders.has(e.order)) problems.push({ path: `${path}/${i}/order`, message: 'repeats an order' });
    ids.add(e.id);
    orders.add(e.order);
  });
  return problems;
}

/**
 * Checks that `entries` name every member of `members` exactly once (400 validation_failed otherwise)
 * and returns the ids sorted by their new order.
 */
export function applyPermutation(
  entries: Entry[],
  members: Set<number>,
  path: string,
  idField: string,
  what: string,
): number[] {
  const problems = repeatedEntries(entries, path, idField);
  entries.forEach((e, i) => {
    if (!members.has(e.id))
      problems.push({ path: `${path}/${i}/${idField}`, message: `is not one of ${what}` });
  });
  if (problems.length === 0 && entries.length !== members.size)
    problems.push({ path, message: `must list all ${members.size} of ${what}, each once` });
  if (problems.length > 0) throw errors.validation(problems);
  return [...entries].sort((a, b) => a.order - b.order).map((e) => e.id);
}
