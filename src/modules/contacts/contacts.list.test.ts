import { beforeAll, describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { encodeCursor } from '../../shared/pagination.ts';
import { contactHelpers, expectValidationPaths } from './contacts.test-support.ts';

const ctx = useTestContext();
const { get, newContact, newGroup } = contactHelpers(ctx);

const NAMES = ['bob', 'Alice', 'alice', 'Ämber', 'Zed', '100% Club', '1_0 Crew', 'Al%', 'Charlie', 'al_x'];

let team: TestTeam;
let ids: Record<string, number>;
let groupId: number;
beforeAll(async () => {
  team = await ctx.newTeam();
  groupId = await newGroup(team, 'Bookers');
  ids = {};
  for (const [i, name] of NAMES.entries()) {
    const contact = await newContact(team, {
      name,
      tags: i % 2 === 0 ? ['even'] : [],
      leadStatus: i % 3 === 0 ? 'won' : 'new',
      groupIds: i < 3 ? [groupId] : [],
    });
    ids[name] = contact.id;
  }
  // Another team's contacts never show.
  await newContact(await ctx.newTeam(team.owner), { name: 'Alice' });
});

const list = (query: string) => get(`/api/v1/contacts/?teamId=${team.id}${query}`, team.owner.token);

async function names(query: string, limit = 3): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await list(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    out.push(...res.json().items.map((c: { name: string }) => c.name));
    cursor = res.json().nextCursor;
  } while (cursor);
  return out;
}

describe('contact list', () => {
  it('pages alphabetically by name (case-insensitive), then id, without gaps or repeats', async () => {
    const all = await names('', 200);
    expect(all).toHaveLength(NAMES.length);
    expect(await names('', 3)).toEqual(all);
    const keys = all.map((n) => n.toLowerCase());
    // Names that differ only in case keep creation (id) order.
    expect(all.indexOf('Alice')).toBeLessThan(all.indexOf('alice'));
    expect(keys.indexOf('bob')).toBeLessThan(keys.indexOf('charlie'));
    expect(keys.indexOf('charlie')).toBeLessThan(keys.indexOf('zed'));
  });

  it('finds a name prefix case-insensitively, taking % and _ literally', async () => {
    expect(await names('&q=AL')).toEqual(
      (await names('', 200)).filter((n) => n.toLowerCase().startsWith('al')),
    );
    expect(await names('&q=al%25')).toEqual(['Al%']);
    expect(await names('&q=al_')).toEqual(['al_x']);
    expect(await names('&q=1_')).toEqual(['1_0 Crew']);
    expect(await names('&q=100%25')).toEqual(['100% Club']);
    expect(await names('&q=%C3%A4m')).toEqual(['Ämber']);
    expect(await names('&q=nobody')).toEqual([]);
  });

  it('filters by group, tag and lead status', async () => {
    expect((await names(`&groupId=${groupId}`)).sort()).toEqual(NAMES.slice(0, 3).sort());
    expect((await names('&tag=even')).sort()).toEqual(NAMES.filter((_, i) => i % 2 === 0).sort());
    expect((await names('&leadStatus=won')).sort()).toEqual(NAMES.filter((_, i) => i % 3 === 0).sort());
    expect(await names('&leadStatus=won&tag=even&q=b')).toEqual(['bob']);
    expect(await names('&groupId=2147483647')).toEqual([]);
  });

  it('refuses bad queries, cursors from elsewhere, and answers 404 to outsiders', async () => {
    expectValidationPaths(await list('&limit=0'), ['/query/limit']);
    expectValidationPaths(await list('&limit=201'), ['/query/limit']);
    expectValidationPaths(await list('&leadStatus=hot'), ['/query/leadStatus']);
    expectValidationPaths(await list('&q='), ['/query/q']);
    expectValidationPaths(await list('&cursor=garbage'), ['/query/cursor']);
    const first = (await list('&limit=2')).json();
    expectValidationPaths(await list(`&tag=even&cursor=${first.nextCursor}`), ['/query/cursor']);
    const binding = first.nextCursor.split('.')[1];
    for (const value of [['a', 'b'], [1, 2], ['a\u0000', 2], ['a', 2 ** 40], 'a']) {
      expectValidationPaths(await list(`&cursor=${encodeCursor(value)}.${binding}`), ['/query/cursor']);
    }
    expectValidationPaths(await get('/api/v1/contacts/', team.owner.token), ['/query/teamId']);
    const outsider = await ctx.newUser();
    expect((await get(`/api/v1/contacts/?teamId=${team.id}`, outsider.token)).statusCode).toBe(404);
    expect(ids.bob).toBeGreaterThan(0);
  });
});
