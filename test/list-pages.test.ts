import { uuidv7 } from 'uuidv7';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  followUpTasks,
  organisationMembers,
  organisations,
  organisationTeams,
} from '../src/db/schema/index.ts';
import { type TestTeam, type TestUser, useTestContext } from './helpers/context.ts';
import { tinyPng } from './helpers/track-files.ts';

const ctx = useTestContext();

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
async function call(method: Method, url: string, user: TestUser | string, payload?: object) {
  const token = typeof user === 'string' ? user : user.token;
  return ctx.request({ method, url, token, ...(payload ? { payload } : {}) });
}
async function ok(method: Method, url: string, user: TestUser | string, payload?: object) {
  const res = await call(method, url, user, payload);
  expect(res.statusCode, `${method} ${url} ${res.body}`).toBeLessThan(300);
  return res.body ? res.json() : null;
}

const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

/** Every item of a list, `limit` a page, following nextCursor to the end. */
async function walk(url: string, user: TestUser | string, limit: number): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const page = await ok('GET', withQuery(url, `limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`), user);
    expect(page.items.length, url).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    cursor = page.nextCursor;
    if (cursor === null) return items;
  }
  throw new Error(`${url} did not end`);
}

/** Items as compared across requests: signed URLs (new at each answer) left out. */
const stable = (items: unknown[]) =>
  items.map((item) =>
    Object.fromEntries(Object.entries(item as object).filter(([name]) => !/url/i.test(name))),
  );

/** A list walked one item a page is the list read whole, and a cursor it did not issue is 400. */
async function expectPaged(url: string, user: TestUser | string, atLeast: number) {
  const whole = await ok('GET', url, user);
  expect(whole.items.length, url).toBeGreaterThanOrEqual(atLeast);
  expect(whole.nextCursor, url).toBeNull();
  expect(stable(await walk(url, user, 1)), url).toEqual(stable(whole.items));
  expect((await call('GET', withQuery(url, 'cursor=bm9wZQ'), user)).statusCode, url).toBe(400);
  expect((await call('GET', withQuery(url, 'limit=0'), user)).statusCode, url).toBe(400);
}

/** A registered cover of the track: its upload URL, the PUT of its bytes, then its registration. */
async function uploadCover(owner: TestTeam, trackId: number, grey: number) {
  const bytes = tinyPng(grey);
  const covers = `/api/v1/tracks/${trackId}/covers`;
  const ticket = await ok('POST', covers, owner.owner, { fileName: `c${grey}.png`, fileSize: bytes.length });
  const url = new URL(ticket.uploadUrl);
  const put = await ctx.request({
    method: 'PUT',
    url: url.pathname + url.search,
    headers: ticket.headers,
    payload: bytes,
  });
  expect(put.statusCode, put.body).toBeLessThan(300);
  await ok('POST', `${covers}/${ticket.id}/added`, owner.owner);
}

let team: TestTeam;
let member: TestUser;
let stranger: TestTeam;

beforeAll(async () => {
  team = await ctx.newTeam(undefined, 'Alpha team');
  member = await ctx.addMember(team, 'admin');
  stranger = await ctx.newTeam();
});

describe('lists that answered everything at once page now', () => {
  it('pages collaborator groups, album collaborators, assets and the track picker', async () => {
    const track = await ctx.newTrack(team);
    const people = [
      { name: 'Ana', roles: ['producer', 'writer'] },
      { name: 'Bo', roles: ['mixer'] },
      { name: 'ana', roles: ['co-writer'] },
    ];
    for (const person of people)
      await ok('POST', `/api/v1/tracks/${track.id}/collaborators`, team.owner, person);
    await expectPaged(`/api/v1/tracks/${track.id}/collaborator-groups`, team.owner, 4);

    const album = await ok('POST', '/api/v1/albums/', team.owner, { title: 'LP', teamId: team.id });
    await ok('POST', `/api/v1/albums/${album.id}/tracks`, team.owner, { trackIds: [track.id] });
    // Ana and ana are one person (same name, neither user nor e-mail).
    await expectPaged(`/api/v1/albums/${album.id}/collaborators`, team.owner, 2);

    for (const grey of [10, 20, 30]) await uploadCover(team, track.id, grey);
    await expectPaged(`/api/v1/tracks/${track.id}/assets`, team.owner, 3);

    const second = await ctx.newTeam(team.owner, 'Beta team');
    await ctx.newTrack(second);
    await ctx.newTeam(team.owner, 'Gamma team');
    await expectPaged('/api/v1/track-collections', team.owner, 3);
    const teams = (await walk('/api/v1/track-collections', team.owner, 1)) as { teamName: string }[];
    expect(teams.map((t) => t.teamName)).toEqual(['Alpha team', 'Beta team', 'Gamma team']);
  });

  it('pages deep search by rank, and the mention search kind by kind', async () => {
    for (const title of ['Night drive', 'Night owl', 'Nightfall', 'Midnight'])
      await ctx.newTrack(team, { title });
    await expectPaged(`/api/v1/tracks/search/deep?teamId=${team.id}&q=night`, team.owner, 3);

    await ok('POST', '/api/v1/contacts/', team.owner, { teamId: team.id, name: 'Nia' });
    await ok('POST', '/api/v1/albums/', team.owner, { title: 'Nights', teamId: team.id });
    const url = `/api/v1/chat/mention-search?teamId=${team.id}&q=n`;
    const whole = await ok('GET', url, team.owner);
    for (const limit of [1, 2, 3]) {
      const walked = (await walk(url, team.owner, limit)) as { kind: string; id: string }[];
      const key = (c: { kind: string; id: string }) => `${c.kind}:${c.id}`;
      expect(walked.map(key).sort()).toEqual(whole.items.map(key).sort());
      expect(new Set(walked.map(key)).size).toBe(walked.length);
    }
    expect((await call('GET', `${url}&cursor=bm9wZQ`, team.owner)).statusCode).toBe(400);
  });

  it('pages who is typing, sign-in identities and next actions', async () => {
    const thread = await ok('POST', '/api/v1/chat/threads', team.owner, {
      type: 'team',
      teamIds: [team.id],
      name: 'Typing',
    });
    const third = await ctx.addMember(team, 'member');
    for (const user of [member, third])
      await ok('POST', `/api/v1/chat/threads/${thread.id}/typing`, user, { typing: true });
    await expectPaged(`/api/v1/chat/threads/${thread.id}/typing`, team.owner, 2);

    await expectPaged('/api/v1/user/identities', team.owner, 1);

    const [organisation] = await ctx.database.db
      .insert(organisations)
      .values({ name: 'Label' })
      .returning({ id: organisations.id });
    await ctx.database.db
      .insert(organisationTeams)
      .values({ organisationId: organisation!.id, teamId: team.id });
    await ctx.database.db
      .insert(organisationMembers)
      .values({ organisationId: organisation!.id, userId: team.owner.id, role: 'owner' });
    const dueAt = new Date(Date.now() - 3_600_000);
    await ctx.database.db.insert(followUpTasks).values(
      ['Maya', 'Sam', 'Lee'].map((person) => ({
        id: uuidv7(),
        teamId: team.id,
        userId: team.owner.id,
        botId: 'assistant',
        person,
        dueAt,
      })),
    );
    await expectPaged(`/api/v1/organisations/${organisation!.id}/next-actions`, team.owner, 3);
    const counted = await ok(
      'GET',
      `/api/v1/organisations/${organisation!.id}/follow-ups?count=true&limit=1`,
      team.owner,
    );
    expect(counted).toMatchObject({ total: 3 });
    expect(counted.items).toHaveLength(1);
    expect(
      (await call('GET', `/api/v1/organisations/${organisation!.id}/follow-ups?count=true`, stranger.owner))
        .statusCode,
    ).toBe(404);
    const members = await ok(
      'GET',
      `/api/v1/organisations/${organisation!.id}/members?count=true&limit=1`,
      team.owner,
    );
    expect(members.total).toBe(1);
  });
});

describe('count=true adds total to the lists dashboards count', () => {
  /** `total` of the list with count=true is the number of items walked; without count there is none. */
  async function expectCounted(url: string, user: TestUser | string, expected: number) {
    const counted = await ok('GET', withQuery(url, 'count=true&limit=1'), user);
    expect(counted.total, url).toBe(expected);
    expect(counted.items.length, url).toBe(Math.min(1, expected));
    expect((await walk(url, user, 2)).length, url).toBe(expected);
    expect((await ok('GET', withQuery(url, 'limit=1'), user)).total, url).toBeUndefined();
    expect((await ok('GET', withQuery(url, 'count=false'), user)).total, url).toBeUndefined();
    expect((await call('GET', withQuery(url, 'count=1'), user)).statusCode, url).toBe(400);
    // A cursor of a counted page serves the next page without count (and the other way round).
    if (counted.nextCursor) {
      const next = await call('GET', withQuery(url, `limit=1&cursor=${counted.nextCursor}`), user);
      expect(next.statusCode, `${url} ${next.body}`).toBe(200);
    }
  }

  it('counts the whole filtered list, not the page', async () => {
    const own = await ctx.newTeam();
    const tracks = [
      await ctx.newTrack(own, { title: 'Song A' }),
      await ctx.newTrack(own, { title: 'Song B' }),
    ];
    await ctx.newTrack(own, { title: 'Other' });
    // A track shared in from another team of the owner counts once.
    const other = await ctx.newTeam(own.owner);
    const shared = await ctx.newTrack(other, { title: 'Song shared' });
    await ok('POST', `/api/v1/tracks/${shared.id}/teams`, own.owner, { teamId: own.id });
    await expectCounted(`/api/v1/tracks/?teamId=${own.id}`, own.owner, 4);
    await expectCounted(`/api/v1/tracks/?teamId=${own.id}&q=song`, own.owner, 3);
    await expectCounted('/api/v1/tracks/?q=song', own.owner, 3);
    const key = await ctx.newApiKey(own);
    await expectCounted('/api/v1/tracks/', key, 4);

    for (const title of ['One', 'Two', 'Three'])
      await ok('POST', '/api/v1/albums/', own.owner, { title, teamId: own.id });
    await expectCounted(`/api/v1/albums/?teamId=${own.id}`, own.owner, 3);
    expect((await ok('GET', `/api/v1/albums/?teamId=${own.id}&offset=1`, own.owner)).total).toBe(3);

    for (const name of ['Ann', 'Andy', 'Bea'])
      await ok('POST', '/api/v1/contacts/', own.owner, { teamId: own.id, name });
    await expectCounted(`/api/v1/contacts/?teamId=${own.id}`, own.owner, 3);
    await expectCounted(`/api/v1/contacts/?teamId=${own.id}&q=an`, own.owner, 2);

    for (const startsAt of ['2031-01-01T10:00:00Z', '2031-02-01T10:00:00Z'])
      await ok('POST', '/api/v1/sessions/', own.owner, { teamId: own.id, title: 'S', startsAt });
    await expectCounted(`/api/v1/sessions/?teamId=${own.id}`, own.owner, 2);
    await expectCounted(`/api/v1/sessions/?teamId=${own.id}&from=2031-01-15T00:00:00Z`, own.owner, 1);

    for (const amount of [10, 20, 30])
      await ok('POST', '/api/v1/financials/', own.owner, { teamId: own.id, isIncome: amount !== 20, amount });
    await expectCounted(`/api/v1/financials/?teamId=${own.id}`, own.owner, 3);
    await expectCounted(`/api/v1/financials/?teamId=${own.id}&type=income`, own.owner, 2);

    const todos = `/api/v1/tracks/${tracks[0]!.id}/versions/${tracks[0]!.versionId}/todos`;
    for (const todo of ['mix', 'master']) await ok('POST', todos, own.owner, { todo });
    await expectCounted(todos, own.owner, 2);

    await ctx.addMember(own, 'member');
    await expectCounted(`/api/v1/teams/${own.id}/members`, own.owner, 2);

    await ctx.database.db.insert(followUpTasks).values(
      ['Maya', 'Sam'].map((person) => ({
        id: uuidv7(),
        teamId: own.id,
        userId: own.owner.id,
        botId: 'assistant',
        person,
      })),
    );
    await expectCounted(`/api/v1/chat/bots/assistant/follow-ups?teamId=${own.id}`, own.owner, 2);
  });

  it('keeps another team’s lists 404 with count=true', async () => {
    const own = await ctx.newTeam();
    for (const url of [
      `/api/v1/tracks/?teamId=${stranger.id}`,
      `/api/v1/albums/?teamId=${stranger.id}`,
      `/api/v1/contacts/?teamId=${stranger.id}`,
      `/api/v1/sessions/?teamId=${stranger.id}`,
      `/api/v1/financials/?teamId=${stranger.id}`,
      `/api/v1/teams/${stranger.id}/members`,
      `/api/v1/chat/bots/assistant/follow-ups?teamId=${stranger.id}`,
    ]) {
      expect((await call('GET', withQuery(url, 'count=true'), own.owner)).statusCode, url).toBe(404);
    }
    const track = await ctx.newTrack(stranger);
    const todos = `/api/v1/tracks/${track.id}/versions/${track.versionId}/todos?count=true`;
    expect((await call('GET', todos, own.owner)).statusCode).toBe(404);
  });
});
