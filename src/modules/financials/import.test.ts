import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { financialEntries } from '../../db/schema/index.ts';
import { expectValidationPaths, financialHelpers } from './financials.test-support.ts';

const ctx = useTestContext();
const { eventsOf, logOf, entryCount } = financialHelpers(ctx);

const importAs = (team: TestTeam, entries: unknown[], token = team.owner.token) =>
  ctx.request({
    method: 'POST',
    url: '/api/v1/financials/import',
    token,
    payload: { teamId: team.id, entries },
  });

/** `count` valid rows; row i has amount i + 0.01 and a description naming it. */
const validRows = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    isIncome: i % 2 === 0,
    amount: i + 0.01,
    currency: i % 10 === 0 ? 'USD' : 'EUR',
    occurredOn: `2030-${String((i % 12) + 1).padStart(2, '0')}-15`,
    category: `category ${i % 7}`,
    description: `row ${i}`,
    status: i % 4 === 0 ? 'pending' : 'confirmed',
  }));

describe('financial import', () => {
  it('imports 5,000 rows in one go, with one webhook event and one activity entry', async () => {
    const team = await ctx.newTeam();
    // Descriptions long enough that the body is larger than an ordinary request may be.
    const rows = validRows(5000).map((row) => ({
      ...row,
      description: `${row.description}: ${'ab, "cd" '.repeat(30)}`,
    }));
    expect(JSON.stringify({ teamId: team.id, entries: rows }).length).toBeGreaterThan(ctx.config.bodyLimit);
    const res = await importAs(team, rows);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.imported).toBe(5000);
    expect(body.ids).toHaveLength(5000);
    expect(body.ids).toEqual([...body.ids].sort((a: number, b: number) => a - b));
    expect(new Set(body.ids).size).toBe(5000);
    expect(await entryCount(team)).toBe(5000);

    const storedRows = await ctx.database.db
      .select({
        description: financialEntries.description,
        amount: sql<string>`${financialEntries.amount}::text`,
        currency: financialEntries.currency,
      })
      .from(financialEntries)
      .where(eq(financialEntries.teamId, team.id));
    const byDescription = new Map(storedRows.map((r) => [r.description, r]));
    rows.forEach((row) => {
      expect(byDescription.get(row.description)).toEqual({
        description: row.description,
        amount: row.amount.toFixed(2),
        currency: row.currency,
      });
    });

    const events = await eventsOf(team);
    expect(events.map((e) => e.type)).toEqual(['financial.import.completed']);
    expect(events[0]!.payload.data).toEqual({ teamId: team.id, count: 5000 });
    expect(await logOf(team)).toEqual([
      {
        type: 'financial.import.completed',
        subjectType: 'team',
        subjectId: String(team.id),
        payload: { teamId: team.id, count: 5000 },
      },
    ]);
  });

  it('answers the health check while a large import runs', async () => {
    const team = await ctx.newTeam();
    const rows = validRows(5000).map((row) => ({ ...row, description: 'ab, "cd" '.repeat(220) }));
    let importDone = false;
    const imported = importAs(team, rows).then((res) => {
      importDone = true;
      return res;
    });
    // Health calls 10 ms apart, as a monitor would send them: answered between the import's statements.
    let answeredDuring = 0;
    while (!importDone) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const health = await ctx.request({ method: 'GET', url: '/api/v1/health' });
      expect(health.json().database).toBe('ok');
      if (!importDone) answeredDuring++;
    }
    expect((await imported).statusCode).toBe(201);
    expect(answeredDuring).toBeGreaterThan(1);
  });

  it('fills the defaults of a create for each row', async () => {
    const team = await ctx.newTeam();
    const before = new Date().toISOString().slice(0, 10);
    const res = await importAs(team, [{ isIncome: false, amount: 3 }]);
    const after = new Date().toISOString().slice(0, 10);
    const [id] = res.json().ids;
    const entry = (
      await ctx.request({ method: 'GET', url: `/api/v1/financials/${id}`, token: team.owner.token })
    ).json();
    expect(entry).toMatchObject({ currency: 'EUR', status: 'confirmed', category: null, description: null });
    expect([before, after]).toContain(entry.occurredOn);
  });

  it('names bad rows 3 and 17 in one answer and creates nothing', async () => {
    const team = await ctx.newTeam();
    const rows: Record<string, unknown>[] = validRows(40);
    rows[3] = { ...rows[3], amount: 0.001 };
    rows[17] = { ...rows[17], amount: -5, currency: 'eur' };
    expectValidationPaths(await importAs(team, rows), [
      '/body/entries/3/amount',
      '/body/entries/17/amount',
      '/body/entries/17/currency',
    ]);
    // A schema problem in one row and too many decimals in another are named together.
    const mixed: Record<string, unknown>[] = validRows(40);
    delete mixed[3]!.isIncome;
    mixed[17] = { ...mixed[17], amount: 19.999 };
    mixed[21] = { ...mixed[21], teamId: team.id };
    expectValidationPaths(await importAs(team, mixed), [
      '/body/entries/3/isIncome',
      '/body/entries/17/amount',
      '/body/entries/21/teamId',
    ]);
    expect(await entryCount(team)).toBe(0);
    expect(await eventsOf(team)).toEqual([]);
    expect(await logOf(team)).toEqual([]);
  });

  it('refuses more than 5,000 rows, none at all, or no list', async () => {
    const team = await ctx.newTeam();
    expectValidationPaths(await importAs(team, validRows(5001)), ['/body/entries']);
    expectValidationPaths(await importAs(team, []), ['/body/entries']);
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/financials/import',
      token: team.owner.token,
      payload: { teamId: team.id, entries: { isIncome: true, amount: 1 } },
    });
    expectValidationPaths(res, ['/body/entries']);
    expect(await entryCount(team)).toBe(0);
  });

  it('rolls every row back when the database refuses one of a later batch', async () => {
    const team = await ctx.newTeam();
    const db = ctx.database.db;
    await db.execute(
      sql.raw(`
      create function refuse_marked_entry() returns trigger language plpgsql as $$
      begin
        if new.description = 'refuse me' then raise exception 'refused'; end if;
        return new;
      end $$`),
    );
    await db.execute(
      sql.raw(`
      create trigger refuse_marked_entry before insert on financial_entries
      for each row execute function refuse_marked_entry()`),
    );
    try {
      const rows = validRows(3000);
      rows[2500] = { ...rows[2500]!, description: 'refuse me' };
      expect((await importAs(team, rows)).statusCode).toBe(500);
      expect(await entryCount(team)).toBe(0);
      expect(await eventsOf(team)).toEqual([]);
      expect(await logOf(team)).toEqual([]);
    } finally {
      await db.execute(sql.raw('drop trigger refuse_marked_entry on financial_entries'));
      await db.execute(sql.raw('drop function refuse_marked_entry'));
    }
  });

  it('takes a key with financials:write; a key without it gets 403, a key of another team 404', async () => {
    const team = await ctx.newTeam();
    const writer = await ctx.newApiKey(team, ['financials:write']);
    const reader = await ctx.newApiKey(team, ['tracks:write', 'contacts:write']);
    expect((await importAs(team, validRows(2), writer)).statusCode).toBe(201);
    const refused = await importAs(team, validRows(2), reader);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('insufficient_scope');
    const other = await ctx.newTeam();
    expect(
      (await importAs(team, validRows(2), await ctx.newApiKey(other, ['financials:write']))).statusCode,
    ).toBe(404);
    expect(await entryCount(team)).toBe(2);
  });
});
