import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { expectValidationPaths, financialHelpers } from './financials.test-support.ts';

const ctx = useTestContext();
const { newEntry, importEntries } = financialHelpers(ctx);

type Entry = { id: number; occurredOn: string; isIncome: boolean; status: string };

const list = (team: TestTeam, query: string) =>
  ctx.request({
    method: 'GET',
    url: `/api/v1/financials/?teamId=${team.id}${query}`,
    token: team.owner.token,
  });

/** Every page of a list, following nextCursor. */
async function allPages(team: TestTeam, query: string): Promise<Entry[][]> {
  const pages: Entry[][] = [];
  let cursor: string | null = null;
  do {
    const res = await list(team, `${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    pages.push(res.json().items);
    cursor = res.json().nextCursor;
  } while (cursor);
  return pages;
}

const newestFirst = (a: Entry, b: Entry) =>
  a.occurredOn === b.occurredOn ? b.id - a.id : a.occurredOn < b.occurredOn ? 1 : -1;

describe('financial entries list', () => {
  it('pages through every entry exactly once, newest occurredOn first and then by id', async () => {
    const team = await ctx.newTeam();
    // Few distinct days, so many entries share a day and the id breaks the ties across page ends.
    const days = ['2030-01-01', '2030-01-02', '2030-01-03', '2030-02-28', '2031-12-31'];
    const ids = await importEntries(
      team,
      Array.from({ length: 123 }, (_, i) => ({
        isIncome: i % 2 === 0,
        amount: i + 1,
        occurredOn: days[(i * 7) % days.length],
        status: i % 5 === 0 ? 'pending' : 'confirmed',
      })),
    );
    const pages = await allPages(team, '&limit=10');
    expect(pages).toHaveLength(13);
    expect(pages.slice(0, -1).every((p) => p.length === 10)).toBe(true);
    const seen = pages.flat();
    expect(seen.map((e) => e.id).sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort(newestFirst));
    // Every status is listed (the summary is what counts confirmed entries only).
    expect(seen.filter((e) => e.status === 'pending')).toHaveLength(25);
  });

  it('filters by type and by inclusive from/to dates, across pages', async () => {
    const team = await ctx.newTeam();
    const days = ['2030-03-31', '2030-04-01', '2030-04-15', '2030-04-30', '2030-05-01'];
    await importEntries(
      team,
      days.flatMap((occurredOn) => [
        { isIncome: true, amount: 1, occurredOn },
        { isIncome: false, amount: 2, occurredOn },
        { isIncome: false, amount: 3, occurredOn },
      ]),
    );
    const april = (await allPages(team, '&from=2030-04-01&to=2030-04-30&limit=2')).flat();
    expect(april.map((e) => e.occurredOn)).toEqual([
      ...Array(3).fill('2030-04-30'),
      ...Array(3).fill('2030-04-15'),
      ...Array(3).fill('2030-04-01'),
    ]);
    const expenses = (await allPages(team, '&type=expense&from=2030-04-15&limit=3')).flat();
    expect(expenses).toHaveLength(6);
    expect(expenses.every((e) => !e.isIncome && e.occurredOn >= '2030-04-15')).toBe(true);
    const incomeUntil = (await allPages(team, '&type=income&to=2030-04-01')).flat();
    expect(incomeUntil.map((e) => e.occurredOn)).toEqual(['2030-04-01', '2030-03-31']);
    const oneDay = (await allPages(team, '&from=2030-05-01&to=2030-05-01')).flat();
    expect(oneDay).toHaveLength(3);
  });

  it('shows only the team of the query, and refuses bad queries with 400', async () => {
    const team = await ctx.newTeam();
    const other = await ctx.newTeam(team.owner);
    await newEntry(team);
    await newEntry(other);
    const res = await list(team, '');
    expect(res.json().items.map((e: { teamId: number }) => e.teamId)).toEqual([team.id]);

    expectValidationPaths(await list(team, '&from=2030-02-01&to=2030-01-31'), ['/query/from']);
    expectValidationPaths(await list(team, '&from=2030-02-30'), ['/query/from']);
    expectValidationPaths(await list(team, '&type=refund'), ['/query/type']);
    expectValidationPaths(await list(team, '&limit=0'), ['/query/limit']);
    expectValidationPaths(await list(team, '&limit=201'), ['/query/limit']);
    expectValidationPaths(await list(team, '&cursor=garbage'), ['/query/cursor']);
    const outsider = await ctx.newUser();
    const hidden = await ctx.request({
      method: 'GET',
      url: `/api/v1/financials/?teamId=${team.id}`,
      token: outsider.token,
    });
    expect(hidden.statusCode).toBe(404);
  });

  it('refuses a cursor sent with other filters, or one that was forged', async () => {
    const team = await ctx.newTeam();
    await importEntries(
      team,
      [1, 2, 3].map((amount) => ({ isIncome: true, amount, occurredOn: '2030-01-01' })),
    );
    const first = await list(team, '&limit=1&type=income');
    const cursor = first.json().nextCursor as string;
    expectValidationPaths(await list(team, `&limit=1&type=expense&cursor=${cursor}`), ['/query/cursor']);
    expect((await list(team, `&limit=1&type=income&cursor=${cursor}`)).statusCode).toBe(200);
    // A well-formed cursor whose date PostgreSQL would refuse is 400, never a failed query.
    const binding = cursor.slice(cursor.lastIndexOf('.'));
    for (const value of [
      ['2030-02-30', 1],
      ['0000-01-01', 1],
      ['2030-01-01', 0],
      ['2030-01-01', 2 ** 31],
    ]) {
      const forged = Buffer.from(JSON.stringify(value)).toString('base64url') + binding;
      expectValidationPaths(await list(team, `&limit=1&type=income&cursor=${forged}`), ['/query/cursor']);
    }
  });
});
