import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/** `case <idColumn> when <id> then <index> ... end`: gives each listed id its index in `ordered` as position. */
export function positionsInOrder(idColumn: AnyColumn, ordered: number[]): SQL<number> {
  const cases = sql.join(
    ordered.map((id, i) => sql`when ${id}::integer then ${i}::integer`),
    sql` `,
  );
  return sql<number>`case ${idColumn} ${cases} end`;
}
