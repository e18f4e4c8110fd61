import { Column, is, type Placeholder, SQL, sql } from 'drizzle-orm';
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

type Executable = { execute(values: Record<string, unknown>): Promise<unknown> };

/**
 * Calls with the caller's values what `prepare` makes of a database handle, made once per handle; the
 * statement text is named on PGlite, as PostgreSQL's driver names it per connection.
 */
function perHandle<Args extends Record<string, unknown>, Result>(
  prepare: (db: Db) => { text: string; query: Executable },
): (db: Db, args: Args) => Promise<Result> {
  const made = new WeakMap<Db, Executable>();
  return async (db, args) => {
    let query = made.get(db);
    if (!query) {
      const prepared = prepare(db);
      pgliteStatementsOf(db)?.register(prepared.text);
      query = prepared.query;
      made.set(db, query);
    }
    return (await query.execute(driverValues(args))) as Result;
  };
}

/** Hot-path query built once per database handle, run prepared: no per-call Drizzle build, one round trip. */
export function preparedQuery<Args extends Record<string, unknown>, Result>(
  name: string,
  build: (db: Db, p: Placeholders<Args>) => Preparable<Result>,
): (db: Db, args: Args) => Promise<Result> {
  return perHandle((db) => {
    const builder = build(db, placeholders as Placeholders<Args>);
    return { text: builder.toSQL().sql, query: builder.prepare(name) };
  });
}

/** A flat selection: output name to column or SQL expression, as given to `db.select(...)`. */
type Selection = Record<string, Column | SQL | SQL.Aliased>;

type Decoder = { mapFromDriverValue(value: unknown): unknown };

// An SQL expression's decoder (`sql<T>`...`.mapWith(...)`) is not part of Drizzle's typings.
const decoderOfSql = (expression: SQL) => (expression as unknown as { decoder: Decoder }).decoder;

function decoderOf(name: string, field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return decoderOfSql(field);
  if (is(field, SQL.Aliased)) return decoderOfSql(field.sql);
  throw new Error(
    `preparedSelect: "${name}" is not a column or SQL expression (nested selections are not supported)`,
  );
}

/**
 * Turns rows of driver values, in the selection's order, into objects named and decoded as it says. Each
 * row is one object literal of every field, written out once per selection: filled field by field (a
 * keyed store each), a row of more than about twenty fields became a dictionary, slower to fill, to add
 * the answer's own fields to and to serialize. Names are JSON-quoted (they come from the selection).
 */
function rowDecoder(fields: Selection): (rows: unknown[][]) => Record<string, unknown>[] {
  const names = Object.keys(fields);
  const decoders = names.map((name) => decoderOf(name, fields[name]));
  const properties = names.map(
    (name, i) => `${JSON.stringify(name)}: (v = row[${i}]) === null ? null : d[${i}].mapFromDriverValue(v)`,
  );
  const decodeRow = new Function('d', `return (row) => { let v; return { ${properties.join(', ')} }; };`)(
    decoders,
  ) as (row: unknown[]) => Record<string, unknown>;
  return (rows) => rows.map(decodeRow);
}

type Session = {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: string,
    isResponseInArrayMode: boolean,
    customResultMapper: (rows: unknown[][]) => unknown,
  ): Executable;
};

/**
 * `preparedQuery` for a select of a flat selection whose rows are decoded by decoders worked out once,
 * instead of Drizzle's generic mapping (entity checks for every field of every row): for reads that answer
 * many rows. `build` answers the selection it selects and the query.
 */
export function preparedSelect<Args extends Record<string, unknown>, S extends Selection, Result>(
  name: string,
  build: (db: Db, p: Placeholders<Args>) => { fields: S; query: Preparable<Result> },
): (db: Db, args: Args) => Promise<Result> {
  return perHandle((db) => {
    const built = build(db, placeholders as Placeholders<Args>);
    const statement = built.query.toSQL() as { sql: string; params: unknown[] };
    // The session Drizzle itself prepares with (an internal of Drizzle's, the same for both drivers).
    const session = (db as unknown as { session: Session }).session;
    return {
      text: statement.sql,
      query: session.prepareQuery(statement, undefined, name, true, rowDecoder(built.fields)),
    };
  });
}
