import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase } from '../../test/helpers/database.ts';
import { loadConfig } from '../config.ts';
import { type Database, type Db, openDatabase, openPostgres } from './client.ts';
import { users } from './schema/index.ts';

// On PostgreSQL, statements Drizzle does not name go through the driver's per-connection statement cache.
describe.runIf(process.env.DATABASE_URL)('statements on PostgreSQL', () => {
  let clone: Database & { url?: string };
  let database: Database;

  beforeAll(async () => {
    clone = await cloneDatabase();
    // One connection, so the statements a query prepared are those the next one lists.
    database = openPostgres(clone.url!, 1);
  });
  afterAll(async () => {
    await database?.close();
    await clone?.close();
  });

  // On PostgreSQL, `execute` answers the rows themselves.
  const preparedTexts = async (db: Pick<Db, 'execute'> = database.db) =>
    (
      (await db.execute(sql`select statement from pg_prepared_statements`)) as unknown as {
        statement: string;
      }[]
    ).map((row) => row.statement);
  const marked = (texts: string[], marker: string) => texts.filter((text) => text.includes(marker));

  it('prepares a statement with parameters once per connection, in and out of transactions', async () => {
    const lookup = (id: string) =>
      database.db
        .select({ id: users.id })
        .from(users)
        .where(sql`${eq(users.id, id)} and 'outside' = 'outside'`);
    for (let i = 0; i < 3; i++) await lookup(crypto.randomUUID());
    expect(marked(await preparedTexts(), `'outside' = 'outside'`)).toHaveLength(1);

    await database.db.transaction(async (tx) => {
      await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`${eq(users.id, crypto.randomUUID())} and 'inside' = 'inside'`);
      await tx.transaction(async (nested) => {
        await nested
          .select({ id: users.id })
          .from(users)
          .where(sql`${eq(users.id, crypto.randomUUID())} and 'nested' = 'nested'`);
      });
      const texts = await preparedTexts(tx);
      expect(marked(texts, `'inside' = 'inside'`)).toHaveLength(1);
      expect(marked(texts, `'nested' = 'nested'`)).toHaveLength(1);
    });
  });

  it('leaves bulk statements and texts without parameters (which may hold several) unprepared', async () => {
    const ids = Array.from({ length: 65 }, () => crypto.randomUUID());
    await database.db
      .select({ id: users.id })
      .from(users)
      .where(sql`${inArray(users.id, ids)} and 'bulk' = 'bulk'`);
    const [few] = ids;
    await database.db
      .select({ id: users.id })
      .from(users)
      .where(sql`${inArray(users.id, [few!])} and 'few' = 'few'`);
    await database.db.execute(sql.raw(`select 'several' = 'several'; select 2`));
    const texts = await preparedTexts();
    expect(marked(texts, `'bulk' = 'bulk'`)).toEqual([]);
    expect(marked(texts, `'few' = 'few'`)).toHaveLength(1);
    expect(marked(texts, `'several' = 'several'`)).toEqual([]);
  });

  it('runs a prepared statement on its generic plan from the first call, never planning it for the values', async () => {
    for (let i = 0; i < 8; i++)
      await database.db
        .select({ id: users.id })
        .from(users)
        .where(sql`${eq(users.id, crypto.randomUUID())} and 'planned' = 'planned'`);
    const plans = (await database.db.execute(
      sql`select generic_plans, custom_plans from pg_prepared_statements where statement like '%''planned'' = ''planned''%'`,
    )) as unknown as { generic_plans: string; custom_plans: string }[];
    expect(plans.map((row) => [Number(row.generic_plans), Number(row.custom_plans)])).toEqual([[8, 0]]);
  });
});

// Both engines: PGlite's one session takes the settings of every PostgreSQL connection.
describe('planner settings', () => {
  it('make every prepared statement run its generic plan', async () => {
    const database = await cloneDatabase();
    try {
      const rows = (await database.db.execute(sql`show plan_cache_mode`)) as unknown as
        | { plan_cache_mode: string }[]
        | { rows: { plan_cache_mode: string }[] };
      const [row] = Array.isArray(rows) ? rows : rows.rows;
      expect(row?.plan_cache_mode).toBe('force_generic_plan');
    } finally {
      await database.close();
    }
  });
});

describe.runIf(process.env.DATABASE_URL)('the pool of a process on PostgreSQL', () => {
  it('has as many connections as DATABASE_POOL_SIZE says', async () => {
    const config = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, DATABASE_POOL_SIZE: '3' });
    const database = await openDatabase(config);
    try {
      expect(database.sql?.options.max).toBe(3);
    } finally {
      await database.close();
    }
  });
});
