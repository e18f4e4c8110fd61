import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestContext, TestTeam } from '../../../test/helpers/context.ts';
import { teamEvents, webhookEventsOf } from '../../../test/helpers/events.ts';
import { financialEntries } from '../../db/schema/index.ts';

type Fields = Record<string, unknown>;
type JsonResponse = {
  statusCode: number;
  body: string;
  json(): { code: string; details: { path: string }[] };
};

/** Helpers of the financials tests: entries through the API, and what the database holds afterwards. */
export function financialHelpers(ctx: TestContext) {
  const db = () => ctx.database.db;

  /** Creates an entry through the API (as the team's owner unless `token` is given); answers the entry. */
  async function newEntry(team: TestTeam, fields: Fields = {}, token = team.owner.token) {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/financials/',
      token,
      payload: { teamId: team.id, isIncome: true, amount: 10, ...fields },
    });
    if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  /** A contact of the team, made through the contacts API as the team's owner; answers its id. */
  async function newContact(team: TestTeam, name = 'Maya'): Promise<number> {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/contacts/',
      token: team.owner.token,
      payload: { team_id: team.id, name },
    });
    if (res.statusCode !== 201) throw new Error(`contact failed: ${res.statusCode} ${res.body}`);
    return res.json().id;
  }

  /** Imports entries through the API as the team's owner; answers the created ids. */
  async function importEntries(team: TestTeam, entries: Fields[]): Promise<number[]> {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/financials/import',
      token: team.owner.token,
      payload: { teamId: team.id, entries },
    });
    if (res.statusCode !== 201) throw new Error(`import failed: ${res.statusCode} ${res.body}`);
    return res.json().ids;
  }

  /** The team's events of a webhook type, oldest first, with the body a webhook sends for each. */
  async function eventsOf(team: TestTeam, type?: string) {
    const rows = await webhookEventsOf(db(), { teamId: team.id }, type);
    return rows.map((r) => ({
      type: r.type,
      payload: { type: r.type, timestamp: r.createdAt.toISOString(), data: r.data as unknown },
    }));
  }

  /** The events of the team in the log, oldest first. */
  const logOf = (team: TestTeam) => teamEvents(db(), team.id);

  async function entryCount(team: TestTeam): Promise<number> {
    const [row] = await db()
      .select({ n: sql<number>`count(*)::integer` })
      .from(financialEntries)
      .where(eq(financialEntries.teamId, team.id));
    return row!.n;
  }

  /**
   * `count` confirmed EUR entries of the team straight in SQL (fast): entry g is an income of g.00 on a day
   * going back from 2030-12-31, with a description naming it.
   */
  async function seedEntries(team: TestTeam, count: number): Promise<void> {
    await db().execute(sql`
      insert into financial_entries (team_id, is_income, amount, occurred_on, category, description)
      select ${team.id}, g % 3 <> 0, g, date '2030-12-31' - (g % 400), 'seeded', 'seeded entry ' || g
      from generate_series(1, ${count}) g`);
  }

  return { newEntry, newContact, importEntries, eventsOf, logOf, entryCount, seedEntries };
}

/** 400 validation_failed naming exactly `paths` (in any order). */
export function expectValidationPaths(res: JsonResponse, paths: string[]) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().code).toBe('validation_failed');
  expect([...new Set(res.json().details.map((d) => d.path))].sort()).toEqual([...paths].sort());
}
