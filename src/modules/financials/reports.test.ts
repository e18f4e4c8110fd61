import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { expectValidationPaths, financialHelpers } from './financials.test-support.ts';

const ctx = useTestContext();
const { importEntries } = financialHelpers(ctx);

const summary = (team: TestTeam, query = '', token = team.owner.token) =>
  ctx.request({ method: 'GET', url: `/api/v1/financials/summary?teamId=${team.id}${query}`, token });
const pipeline = (team: TestTeam, query = '') =>
  ctx.request({
    method: 'GET',
    url: `/api/v1/financials/pipeline?teamId=${team.id}${query}`,
    token: team.owner.token,
  });

const totals = (currency: string, income: number, expense: number, net: number, count: number) => ({
  currency,
  income,
  expense,
  net,
  count,
});

describe('financial summary', () => {
  it('sums exactly in the database: 0.10 + 0.20 is 0.30, and 1,000 × 0.10 is 100.00', async () => {
    const team = await ctx.newTeam();
    await importEntries(team, [
      { isIncome: true, amount: 0.1, currency: 'USD' },
      { isIncome: true, amount: 0.2, currency: 'USD' },
      ...Array.from({ length: 1000 }, () => ({ isIncome: true, amount: 0.1 })),
      ...Array.from({ length: 999 }, () => ({ isIncome: false, amount: 0.07 })),
    ]);
    // What adding the same numbers as floats gives, to show the test can tell the difference.
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(Array.from({ length: 1000 }, () => 0.1).reduce((a, b) => a + b, 0)).not.toBe(100);
    const res = await summary(team);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().totals).toEqual([
      totals('EUR', 100, 69.93, 30.07, 1999),
      totals('USD', 0.3, 0, 0.3, 2),
    ]);
  });

  it('counts confirmed entries only, per currency, per month and per category', async () => {
    const team = await ctx.newTeam();
    const confirmed = [
      { isIncome: true, amount: 1000, occurredOn: '2030-01-10', category: 'gigs' },
      { isIncome: false, amount: 250.5, occurredOn: '2030-01-20', category: 'studio' },
      { isIncome: true, amount: 99.99, occurredOn: '2030-02-01', category: 'gigs', currency: 'GBP' },
      { isIncome: false, amount: 10, occurredOn: '2030-02-14' },
      { isIncome: true, amount: 0.01, occurredOn: '2030-02-28', category: 'Merch' },
    ];
    const others = ['pending', 'declined', 'lost'].map((status) => ({
      isIncome: true,
      amount: 5000,
      occurredOn: '2030-01-15',
      category: 'gigs',
      status,
    }));
    await importEntries(team, [...confirmed, ...others]);
    const res = await summary(team);
    expect(res.json()).toEqual({
      teamId: team.id,
      from: null,
      to: null,
      totals: [totals('EUR', 1000.01, 260.5, 739.51, 4), totals('GBP', 99.99, 0, 99.99, 1)],
      months: [
        { month: '2030-01', totals: [totals('EUR', 1000, 250.5, 749.5, 2)] },
        { month: '2030-02', totals: [totals('EUR', 0.01, 10, -9.99, 2), totals('GBP', 99.99, 0, 99.99, 1)] },
      ],
      categories: [
        { category: 'Merch', totals: [totals('EUR', 0.01, 0, 0.01, 1)] },
        { category: 'gigs', totals: [totals('EUR', 1000, 0, 1000, 1), totals('GBP', 99.99, 0, 99.99, 1)] },
        { category: 'studio', totals: [totals('EUR', 0, 250.5, -250.5, 1)] },
        { category: null, totals: [totals('EUR', 0, 10, -10, 1)] },
      ],
    });
  });

  it('takes from and to as inclusive dates, and answers an empty summary for no entries', async () => {
    const team = await ctx.newTeam();
    await importEntries(
      team,
      ['2030-03-31', '2030-04-01', '2030-04-30', '2030-05-01'].map((occurredOn, i) => ({
        isIncome: true,
        amount: 10 ** i,
        occurredOn,
      })),
    );
    const april = (await summary(team, '&from=2030-04-01&to=2030-04-30')).json();
    expect(april.from).toBe('2030-04-01');
    expect(april.to).toBe('2030-04-30');
    expect(april.totals).toEqual([totals('EUR', 110, 0, 110, 2)]);
    expect((await summary(team, '&from=2030-05-01')).json().totals).toEqual([
      totals('EUR', 1000, 0, 1000, 1),
    ]);
    expect((await summary(team, '&to=2030-03-31')).json().totals).toEqual([totals('EUR', 1, 0, 1, 1)]);
    expect((await summary(team, '&from=2031-01-01')).json()).toMatchObject({
      totals: [],
      months: [],
      categories: [],
    });
    expectValidationPaths(await summary(team, '&from=2030-05-01&to=2030-04-30'), ['/query/from']);
  });

  it("sums large amounts exactly, and hides another team's summary", async () => {
    const team = await ctx.newTeam();
    await importEntries(team, [
      { isIncome: true, amount: 999_999_999_999.99 },
      { isIncome: true, amount: 0.02 },
      { isIncome: false, amount: 123_456_789.01 },
    ]);
    expect((await summary(team)).json().totals).toEqual([
      totals('EUR', 1_000_000_000_000.01, 123_456_789.01, 999_876_543_211, 3),
    ]);
    const outsider = await ctx.newUser();
    expect((await summary(team, '', outsider.token)).statusCode).toBe(404);
  });
});

describe('financial pipeline', () => {
  it('lists pending entries by default with their totals per currency; other statuses on request', async () => {
    const team = await ctx.newTeam();
    await importEntries(team, [
      { isIncome: true, amount: 1500, status: 'pending', occurredOn: '2030-06-01', description: 'Festival' },
      { isIncome: true, amount: 0.1, status: 'pending', occurredOn: '2030-06-02', currency: 'USD' },
      { isIncome: true, amount: 0.2, status: 'pending', occurredOn: '2030-06-03', currency: 'USD' },
      { isIncome: false, amount: 300, status: 'pending', occurredOn: '2030-06-04' },
      { isIncome: true, amount: 800, status: 'lost', occurredOn: '2030-05-01' },
      { isIncome: true, amount: 50, status: 'confirmed', occurredOn: '2030-05-01' },
    ]);
    const res = await pipeline(team);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.status).toBe('pending');
    expect(body.totals).toEqual([totals('EUR', 1500, 300, 1200, 2), totals('USD', 0.3, 0, 0.3, 2)]);
    expect(body.items.map((e: { occurredOn: string }) => e.occurredOn)).toEqual([
      '2030-06-04',
      '2030-06-03',
      '2030-06-02',
      '2030-06-01',
    ]);
    expect(body.nextCursor).toBeNull();

    const lost = (await pipeline(team, '&status=lost')).json();
    expect(lost.totals).toEqual([totals('EUR', 800, 0, 800, 1)]);
    expect(lost.items).toHaveLength(1);
    expect((await pipeline(team, '&status=declined')).json()).toEqual({
      status: 'declined',
      totals: [],
      items: [],
      nextCursor: null,
    });
    expectValidationPaths(await pipeline(team, '&status=won'), ['/query/status']);
  });

  it('pages the items while its totals cover every entry of the status', async () => {
    const team = await ctx.newTeam();
    await importEntries(
      team,
      Array.from({ length: 25 }, (_, i) => ({
        isIncome: true,
        amount: 0.1,
        status: 'pending',
        occurredOn: '2030-01-01',
        description: String(i),
      })),
    );
    const ids = new Set<number>();
    let cursor: string | null = null;
    do {
      const res = await pipeline(team, `&limit=10${cursor ? `&cursor=${cursor}` : ''}`);
      const page: { totals: unknown; items: { id: number }[]; nextCursor: string | null } = res.json();
      expect(page.totals).toEqual([totals('EUR', 2.5, 0, 2.5, 25)]);
      for (const item of page.items) ids.add(item.id);
      cursor = page.nextCursor;
    } while (cursor);
    expect(ids.size).toBe(25);
  });
});
