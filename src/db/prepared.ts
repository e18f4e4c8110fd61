import { type Placeholder, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { pgliteStatementsOf } from './statement-registry.ts';

/** The named values of a prepared query, used in its builder where the per-call values go. */
export type Placeholders<Args> = { readonly [K in keyof Args & string]: Placeholder<K, Args[K]> };

type Preparable<Result> = {
  toSQL(): { sql: string };
  prepare(name: string): { execute(values: Record<string, unknown>): Promise<Result> };
};

const placeholders = new Proxy({} as Record<string, Placeholder>, {
  get: (_, name) => sql.placeholder(String(name)),
});

// Drizzle turns the drivers' own Date handling off, and a placeholder bypasses the column's encoder.
function driverValues(args: Record<string, unknown>): Record<string, unknown> {
  let values = args;
  for (const key in args) {
    const value = args[key];
    if (value instanceof Date) {
      if (values === args) values = { ...args };
      values[key] = value.toISOString();
    }
  }
  return values;
}

/** Hot-path query built once per database handle, run prepared: no per-call Drizzle build, one round trip. */
export function preparedQuery<Args extends Record<string, unknown>, Result>(
  name: string,
  build: (db: Db, p: Placeholders<Args>) => Preparable<Result>,
): (db: Db, args: Args) => Promise<Result> {
  const perHandle = new WeakMap<Db, ReturnType<Preparable<Result>['prepare']>>();
  return (db, args) => {
    let query = perHandle.get(db);
    if (!query) {
      const builder = build(db, placeholders as Placeholders<Args>);
      pgliteStatementsOf(db)?.register(builder.toSQL().sql);
      query = builder.prepare(name);
      perHandle.set(db, query);
    }
    return query.execute(driverValues(args));
  };
}
