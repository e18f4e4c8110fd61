import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type TestTeam,
  type TestTrack,
  type TestUser,
  useTestContext,
} from '../../../test/helpers/context.ts';
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
  // A member of both teams who is in more teams than a session's page is made team by team for.
  let crowded: TestUser;
  const rows: (Row & { heldByTeam: boolean })[] = [];

  beforeAll(async () => {
    team = await ctx.newTeam();
    other = await ctx.newTeam(team.owner);
    key = await ctx.newApiKey(team);
    crowded = await ctx.newUser();
    for (const held of [team, other]) await ctx.addMember(held, 'member', crowded);
    for (let i = 0; i < 20; i++) await ctx.newTeam(crowded);
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
      if (shared) await ctx.shareTrack(track.id, team.id, team.owner.token);
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
        heldByTeam: owner === team || shared,
      });
    }
    const [tied] = await queryRows<{ ties: number }>(
      ctx.database.db,
      sql`select count(*) - count(distinct updated_at) as ties from tracks where team_id in (${team.id}, ${other.id})`,
    );
    expect(Number(tied?.ties)).toBeGreaterThan(0);
  });

  const expected = (sort: 'updated' | 'title', keep: (row: (typeof rows)[number]) => boolean) =>
    rows
      .filter((row) => !row.deleted && keep(row))
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

  // The owner of both teams reads them both without a teamId, a track shared between them once.
  const callers = [
    { name: 'a member', token: () => team.owner.token, query: () => `teamId=${team.id}`, teamOnly: true },
    { name: 'an API key', token: () => key, query: () => '', teamOnly: true },
    { name: 'a session, every team', token: () => team.owner.token, query: () => '', teamOnly: false },
    { name: 'a session in 22 teams', token: () => crowded.token, query: () => '', teamOnly: false },
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
          const held = (row: (typeof rows)[number]) => (caller.teamOnly ? row.heldByTeam : true);
          expect(ids).toEqual(expected(sort, (row) => held(row) && filter.keep(row)));
        });
});
