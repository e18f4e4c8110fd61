import type { PgliteStatements } from './pglite-statements.ts';

// Kept apart from the statements themselves, so that code running on PostgreSQL never loads PGlite.
const registries = new WeakMap<object, PgliteStatements>();

/** Ties a Drizzle handle to the statements of the PGlite it runs on. */
export function attachPgliteStatements(db: object, statements: PgliteStatements): void {
  registries.set(db, statements);
}

/** The PGlite statements behind a Drizzle handle; none for PostgreSQL or inside a transaction. */
export function pgliteStatementsOf(db: object): PgliteStatements | undefined {
  return registries.get(db);
}
