import { eq, sql } from 'drizzle-orm';
import { integer, pgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase } from '../../test/helpers/database.ts';
import { sqlState } from '../shared/db-errors.ts';
import type { Database, Db } from './client.ts';
import { type Placeholders, preparedQuery, preparedSelect } from './prepared.ts';
import { sessions, users } from './schema/index.ts';

const userEmail = preparedQuery('test_user_email', (db, p: Placeholders<{ id: string }>) =>
  db.select({ email: users.email }).from(users).where(eq(users.id, p.id)),
);

const liveSessions = preparedQuery(
  'test_live_sessions',
  (db, p: Placeholders<{ userId: string; now: Date }>) =>
    db
      .select({ id: sessions.id })
      .from(sessions)
      .where(
        sql`${sessions.userId} = ${p.userId} and ${sessions.revokedAt} is null and ${sessions.expiresAt} > ${p.now}`,
      ),
);

// A table of this file only, so its shape can change under a prepared statement.
const probe = pgTable('prepared_probe', { id: integer().primaryKey(), value: integer().notNull() });
const probeValue = preparedQuery('test_probe_value', (db, p: Placeholders<{ id: number }>) =>
  db.select({ value: probe.value }).from(probe).where(eq(probe.id, p.id)),
);

let database: Database;
let other: Database;
let db: Db;

beforeAll(async () => {
  [database, other] = await Promise.all([cloneDatabase(), cloneDatabase()]);
  db = database.db;
});
afterAll(async () => {
  await database?.close();
  await other?.close();
});

async function newUser(on: Db = db): Promise<string> {
  const [row] = await on
    .insert(users)
    .values({ email: `prepared-${crypto.randomUUID()}@example.test` })
    .returning({ id: users.id });
  return row!.id;
}

describe('prepared queries', () => {
  it('answer like the query they prepare, with new values (dates included) on every call', async () => {
    const userId = await newUser();
    const expiresAt = new Date(Date.now() + 60_000);
    const [session] = await db.insert(sessions).values({ userId, expiresAt }).returning({ id: sessions.id });

    expect(await liveSessions(db, { userId, now: new Date() })).toEqual([{ id: session!.id }]);
    expect(await liveSessions(db, { userId, now: new Date(expiresAt.getTime() + 1) })).toEqual([]);
    await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, session!.id));
    expect(await liveSessions(db, { userId, now: new Date() })).toEqual([]);
  });

  it('run on the database handle they are given', async () => {
    const here = await newUser();
    const there = await newUser(other.db);
    expect(await userEmail(db, { id: here })).toHaveLength(1);
    expect(await userEmail(db, { id: there })).toEqual([]);
    expect(await userEmail(other.db, { id: there })).toHaveLength(1);
    expect(await userEmail(other.db, { id: here })).toEqual([]);
  });

  it('run inside the transaction they are given, and outside it never see its uncommitted rows', async () => {
    let inserted!: (id: string) => void;
    const insertedId = new Promise<string>((resolve) => {
      inserted = resolve;
    });
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const rollback = new Error('rollback');
    const transaction = db.transaction(async (tx) => {
      const id = await newUser(tx);
      expect(await userEmail(tx, { id })).toHaveLength(1);
      inserted(id);
      await finished;
      throw rollback;
    });
    const id = await insertedId;
    const outside = userEmail(db, { id });
    finish();
    await expect(transaction).rejects.toBe(rollback);
    expect(await outside).toEqual([]);
  });

  it('keep working after the table under them changed shape', async () => {
    await db.execute(sql`create table prepared_probe (id integer primary key, value integer not null)`);
    await db.insert(probe).values({ id: 1, value: 7 });
    expect(await probeValue(db, { id: 1 })).toEqual([{ value: 7 }]);
    // The statement's result type changes: the database refuses the old statement until it is parsed again.
    await db.execute(sql`alter table prepared_probe alter column value type text`);
    await db.update(probe).set({ value: 8 });
    expect(await probeValue(db, { id: 1 })).toEqual([{ value: 8 }]);
  });

  it('fail with the database error of a bad value, as other queries do', async () => {
    const failure = await userEmail(db, { id: 'not-a-uuid' }).catch((error: unknown) => error);
    expect(sqlState(failure)).toBe('22P02');
    const id = await newUser();
    expect(await userEmail(db, { id })).toHaveLength(1);
  });

  it('decode a flat selection as Drizzle does (dates, mapped expressions, nulls), rows in order', async () => {
    const userId = await newUser();
    const expiresAt = new Date(Date.now() + 60_000);
    await db.insert(sessions).values([
      { userId, expiresAt },
      { userId, expiresAt, revokedAt: new Date() },
    ]);
    const select = (on: Db, p: Placeholders<{ userId: string }>) => {
      const fields = {
        id: sessions.id,
        expiresAt: sessions.expiresAt,
        revokedAt: sessions.revokedAt,
        email: sql<string>`(select u.email from users u where u.id = ${sessions.userId})`,
        year: sql<number>`extract(year from ${sessions.expiresAt})::text`.mapWith(Number),
      };
      const query = on
        .select(fields)
        .from(sessions)
        .where(eq(sessions.userId, p.userId))
        .orderBy(sql`${sessions.revokedAt} nulls first`);
      return { fields, query };
    };
    const fast = preparedSelect('test_sessions_decoded', select);
    const rows = await fast(db, { userId });
    const drizzle = await select(db, { userId } as unknown as Placeholders<{ userId: string }>).query;
    expect(rows).toEqual(drizzle);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ expiresAt, revokedAt: null, year: expiresAt.getUTCFullYear() });
    expect(rows[1]!.revokedAt).toBeInstanceOf(Date);
  });

  it('refuse a nested selection, which they do not decode', async () => {
    const nested = preparedSelect('test_nested', (on, p: Placeholders<{ id: string }>) => {
      const fields = { user: { id: users.id } } as unknown as { id: typeof users.id };
      return { fields, query: on.select({ id: users.id }).from(users).where(eq(users.id, p.id)) };
    });
    await expect(nested(db, { id: crypto.randomUUID() })).rejects.toThrow(/nested selections/);
  });
});
