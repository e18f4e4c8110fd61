import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { CSV_COLUMNS } from './export-formats.ts';
import { expectValidationPaths, financialHelpers } from './financials.test-support.ts';

const ctx = useTestContext();
const { newEntry, newContact, importEntries, seedEntries } = financialHelpers(ctx);

const exportOf = (team: TestTeam, query = '', token = team.owner.token) =>
  ctx.request({ method: 'GET', url: `/api/v1/financials/export?teamId=${team.id}${query}`, token });

/** Every entry of the team through the list API, newest first. */
async function listed(team: TestTeam) {
  const items: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const res = await ctx.request({
      method: 'GET',
      url: `/api/v1/financials/?teamId=${team.id}&limit=200${cursor ? `&cursor=${cursor}` : ''}`,
      token: team.owner.token,
    });
    items.push(...res.json().items);
    cursor = res.json().nextCursor;
  } while (cursor);
  return items;
}

// Read as a spreadsheet reads it: a bare CR or LF outside quotes ends a row too.
const records = (csv: string): Record<string, string>[] =>
  parse(csv, { columns: true, record_delimiter: ['\r\n', '\n', '\r'] });

// Text a spreadsheet would run as a formula, and text that only needs quoting.
const FORMULAS = ['=SUM(A1:A9)', '+1+1', '-2+3', '@cmd', '\tTab', '\rReturn', '＝HYPERLINK("x")', '-'];
const AWKWARD = [
  'He said "hi", twice',
  'comma, separated',
  'two\nlines',
  'crlf\r\ninside',
  'Ünïcødé 🎸 日本',
  '',
];
// A formula after a line break inside a cell, as written: a spreadsheet would start a row there.
const LINE_FORMULAS: [string, string][] = [
  ["Studio rent\n=cmd|' /C calc'!A0", "Studio rent\n'=cmd|' /C calc'!A0"],
  ['a\r+1\r\n@b\n\t-c', "a\r'+1\r\n'@b\n'\t-c"],
  ['=x\n\n-y', "'=x\n\n'-y"],
];

describe('financial export', () => {
  it('writes RFC 4180 CSV that parses back to the entries, formulas neutralised', async () => {
    const team = await ctx.newTeam();
    const contactId = await newContact(team);
    for (const [i, text] of [...FORMULAS, ...AWKWARD].entries()) {
      await newEntry(team, {
        amount: 1 + i / 100,
        isIncome: i % 2 === 0,
        occurredOn: `2030-01-${String(10 + i).padStart(2, '0')}`,
        description: text,
        category: i % 3 === 0 ? text || null : 'plain',
        contactId: i % 4 === 0 ? contactId : null,
        status: i % 2 === 0 ? 'confirmed' : 'pending',
      });
    }
    const res = await exportOf(team);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="financials-team-${team.id}.csv"`);
    expect(res.body.startsWith(`${CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(res.body.endsWith('\r\n')).toBe(true);

    const rows = records(res.body);
    const entries = await listed(team);
    expect(rows).toHaveLength(entries.length);
    const neutralised = (text: string | null) =>
      text === null ? '' : /^[=+\-@\t\r＝＋－＠]/.test(text) ? `'${text}` : text;
    rows.forEach((row, i) => {
      const entry = entries[i]!;
      expect(row).toEqual({
        id: String(entry.id),
        teamId: String(team.id),
        isIncome: String(entry.isIncome),
        amount: (entry.amount as number).toFixed(2),
        currency: 'EUR',
        occurredOn: entry.occurredOn,
        category: neutralised(entry.category as string | null),
        description: neutralised(entry.description as string | null),
        contactId: entry.contactId === null ? '' : String(entry.contactId),
        status: entry.status,
        createdAt: entry.createdAt,
        updatedAt: entry.updatedAt,
      });
    });
    // Every formula came out as text, and nothing else was touched.
    const described = rows.map((r) => r.description);
    for (const text of FORMULAS) expect(described).toContain(`'${text}`);
    for (const text of AWKWARD) expect(described).toContain(text);
  });

  it('quotes every cell holding a line break and neutralises a formula at the start of any of its lines', async () => {
    const team = await ctx.newTeam();
    for (const [i, [text]] of LINE_FORMULAS.entries()) {
      await newEntry(team, { amount: 1 + i, isIncome: true, description: text, category: text });
    }
    const res = await exportOf(team);
    expect(res.statusCode, res.body).toBe(200);
    const rows = records(res.body);
    expect(rows).toHaveLength(LINE_FORMULAS.length);
    const written = rows.map((r) => [r.description, r.category]);
    for (const [, safe] of LINE_FORMULAS) expect(written).toContainEqual([safe, safe]);
  });

  it('writes JSON {items} that parses back to the entries the API lists, amounts with two decimals', async () => {
    const team = await ctx.newTeam();
    const contactId = await newContact(team);
    await importEntries(team, [
      { isIncome: true, amount: 10.5, description: 'quote " and \\ backslash', category: '=1+1' },
      {
        isIncome: false,
        amount: 0.3,
        currency: 'USD',
        status: 'lost',
        occurredOn: '2029-12-31',
        contactId,
      },
      { isIncome: true, amount: 999_999_999_999.99, description: 'Ünïcødé 🎸\nline' },
    ]);
    const res = await exportOf(team, '&format=json');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="financials-team-${team.id}.json"`);
    expect(res.json()).toEqual({ items: await listed(team) });
    expect(res.body).toContain('"amount":10.50,');
    expect(res.body).toContain('"amount":0.30,');
    expect(res.body).toContain('"amount":999999999999.99,');
  });

  it('exports only the dates asked for (inclusive), and an empty team as a header or no items', async () => {
    const team = await ctx.newTeam();
    await importEntries(
      team,
      ['2030-03-31', '2030-04-01', '2030-04-30', '2030-05-01'].map((occurredOn) => ({
        isIncome: true,
        amount: 1,
        occurredOn,
      })),
    );
    const res = await exportOf(team, '&from=2030-04-01&to=2030-04-30');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="financials-team-${team.id}-2030-04-01_2030-04-30.csv"`,
    );
    expect(records(res.body).map((r) => r.occurredOn)).toEqual(['2030-04-30', '2030-04-01']);
    const json = (await exportOf(team, '&format=json&to=2030-03-31')).json();
    expect(json.items.map((e: { occurredOn: string }) => e.occurredOn)).toEqual(['2030-03-31']);

    const empty = await ctx.newTeam();
    expect((await exportOf(empty)).body).toBe(`${CSV_COLUMNS.join(',')}\r\n`);
    expect((await exportOf(empty, '&format=json')).body).toBe('{"items":[]}');
    expectValidationPaths(await exportOf(team, '&format=xlsx'), ['/query/format']);
    expectValidationPaths(await exportOf(team, '&from=2030-05-01&to=2030-04-01'), ['/query/from']);
    const outsider = await ctx.newUser();
    expect((await exportOf(team, '', outsider.token)).statusCode).toBe(404);
  });

  it('streams 20,000 entries in batches, every one exactly once, in CSV and in JSON', async () => {
    const team = await ctx.newTeam();
    const count = 20_000;
    await seedEntries(team, count);
    const expected = Array.from({ length: count }, (_, i) => `seeded entry ${i + 1}`);

    const csv = await exportOf(team);
    expect(csv.statusCode).toBe(200);
    const rows = records(csv.body);
    expect(rows).toHaveLength(count);
    expect(new Set(rows.map((r) => r.id)).size).toBe(count);
    expect(rows.map((r) => r.description).sort()).toEqual([...expected].sort());
    const amounts = rows.map((r) => Number(r.description!.slice('seeded entry '.length)).toFixed(2));
    expect(rows.map((r) => r.amount)).toEqual(amounts);
    const order = rows.map((r) => `${r.occurredOn}:${String(r.id).padStart(10, '0')}`);
    expect(order).toEqual([...order].sort().reverse());

    const json = await exportOf(team, '&format=json');
    const items = json.json().items as { id: number }[];
    expect(items.map((e) => String(e.id))).toEqual(rows.map((r) => r.id));
  });

  it('reads the database batch by batch while the file is taken, not all before the answer', async () => {
    const team = await ctx.newTeam();
    await seedEntries(team, 5000);
    const principal = { type: 'session' as const, userId: team.owner.id, sessionId: 'export-test' };
    const file = await ctx.app.services.financialTransfers.export(principal, { teamId: team.id });
    const chunks = file.body[Symbol.asyncIterator]();
    const head = await chunks.next();
    expect(String(head.value)).toMatch(/^id,teamId,/);
    // Written after the export began, and the oldest entry, so it is in the last batch: it is in the file
    // only if that batch was read after this point.
    const late = await newEntry(team, { occurredOn: '2001-01-01', description: 'written during the export' });
    let rest = '';
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) rest += String(next.value);
    const rows = records(String(head.value) + rest);
    expect(rows).toHaveLength(5001);
    expect(rows.at(-1)).toMatchObject({ id: String(late.id), description: 'written during the export' });
  });
});
