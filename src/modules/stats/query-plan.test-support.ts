import type { Database } from '../../db/client.ts';

/**
 * The plan PostgreSQL picks for a statement when sequential scans cost as much as they can: a table still
 * read by a `Seq Scan` then has no index the statement can use.
 */
export async function planWithoutSeqScans(
  database: Database,
  query: { sql: string; params: unknown[] },
): Promise<string> {
  const statement = `explain ${query.sql}`;
  if (database.pglite) {
    return database.pglite.transaction(async (tx) => {
      await tx.exec('set local enable_seqscan = off');
      const { rows } = await tx.query<Record<string, string>>(statement, query.params);
      return rows.map((r) => Object.values(r)[0]).join('\n');
    });
  }
  const sql = database.sql!;
  const rows = await sql.begin(async (tx) => {
    await tx.unsafe('set local enable_seqscan = off');
    return tx.unsafe(statement, query.params as never[]);
  });
  return (rows as unknown as Record<string, string>[]).map((r) => Object.values(r)[0]).join('\n');
}

/** The tables a plan reads with a sequential scan. */
export const seqScannedTables = (plan: string): string[] =>
  [...plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]!).sort();
