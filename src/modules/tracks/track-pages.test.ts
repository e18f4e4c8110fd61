import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestTeam, type TestTrack, useTestContext } from '../../../test/helpers/context.ts';
import { queryRows } from '../../../test/helpers/database.ts';
import { tracks } from '../../db/schema/index.ts';

const ctx = useTestContext();

type Row = { id: number; title: string; statusId: string; updatedAt: number; deleted: boolean };

/**
 * A team's tracks page by page: those it owns and those other teams share with it, interleaved in both
 * orders, with deleted and unshared tracks around them.
 */
describe("pages of a team's tracks", () => {
  let team: TestTeam;
  let other: TestTeam;
  let key: string;
  const rows: (Row & { listed: boolean })[] = [];

  beforeAll(async () => {
    team = await ctx.newTeam();
    other = await ctx.newTeam(team.owner);
    key = await ctx.newApiKey(team);
    const base = Date.parse('2026-03-01T00:00:00Z');
    const titles = [
      'delta',
      'Alpha',
      'echo',
      'bravo',
      'Charlie',
      'alpha',
      'foxtrot',
      'Golf',
      'hotel',
      'India',
    ];
    for (const [i, title] of titles.entries()) {
      const owner = i % 3 === 1 ? other : team;
      const statusId = i % 2 === 0 ? 'idea' : 'writing';
      const track: TestTrack = await ctx.newTrack(owner, { title, statusId });
      const shared = owner === other && i !== 7;
      if (shared) {
        const res = await ctx.request({
          method: 'POST',
          url: `/api/v1/tracks/${track.id}/teams`,
          token: team.owner.token,
          payload: { teamId: team.id },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      // Times out of creation order, two of them equal (the id breaks the tie).
      const updatedAt = base + ((i * 7) % 10) * 60_000 - (i === 4 ? 60_000 : 0);
      const deleted = i === 5 || i === 8;
      await ctx.database.db
        .update(tracks)
        .set({ updatedAt: new Date(updatedAt), deletedAt: deleted ? new Date(updatedAt) : null })
        .where(eq(tracks.id, track.id));
      rows.push({
        id: track.id,
        title,
        statusId,
        updatedAt,
        deleted,
        listed: !deleted && (owner === team || shared),
      });
    }
    const [tied] = await queryRows<{ ties: number }>(
      ctx.database.db,
      sql`select count(*) - count(distinct updated_at) as ties from tracks where team_id in (${team.id}, ${other.id})`,
    );
    expect(Number(tied?.ties)).toBeGreaterThan(0);
  });

  const expected = (sort: 'updated' | 'title', keep: (row: Row) => boolean) =>
    rows
      .filter((row) => row.listed && keep(row))
      .sort((a, b) =>
        sort === 'updated'
          ? b.updatedAt - a.updatedAt || b.id - a.id
          : a.title.toLowerCase().localeCompare(b.title.toLowerCase()) || a.id - b.id,
      )
      .map((row) => row.id);

  async function walk(query: string, token: string): Promise<number[]> {
    const ids: number[] = [];
    let cursor: string | null = null;
    do {
      const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await ctx.request({
        method: 'GET',
        url: `/api/v1/tracks/?limit=2&${query}${after}`,
        token,
      });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as { items: { id: number }[]; nextCursor: string | null };
      expect(page.items.length).toBeLessThanOrEqual(2);
      ids.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    return ids;
  }

  const callers = [
    { name: 'a member', token: () => team.owner.token, query: () => `teamId=${team.id}` },
    { name: 'an API key', token: () => key, query: () => '' },
  ];
  const filters = [
    { name: 'all', query: '', keep: () => true },
    { name: 'one status', query: '&status=writing', keep: (row: Row) => row.statusId === 'writing' },
    { name: 'a text', query: '&q=A', keep: (row: Row) => row.title.toLowerCase().includes('a') },
  ];

  for (const caller of callers)
    for (const sort of ['updated', 'title'] as const)
      for (const filter of filters)
        it(`as ${caller.name}, by ${sort}, ${filter.name}: owned and shared tracks in one order`, async () => {
          const ids = await walk(`${caller.query()}&sort=${sort}${filter.query}`, caller.token());
          expect(ids).toEqual(expected(sort, filter.keep));
        });
});
