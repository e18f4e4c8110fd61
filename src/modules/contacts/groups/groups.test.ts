import { beforeAll, describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../../test/helpers/context.ts';
import { contactHelpers, expectConflict, expectValidationPaths } from '../contacts.test-support.ts';

const ctx = useTestContext();
const { get, patch, newContact, newGroup, logOf } = contactHelpers(ctx);

let team: TestTeam;
beforeAll(async () => {
  team = await ctx.newTeam();
});

const create = (payload: object, token = team.owner.token) =>
  ctx.request({ method: 'POST', url: '/api/v1/contacts/groups', token, payload });
const list = (query = '', token = team.owner.token) =>
  get(`/api/v1/contacts/groups?teamId=${team.id}${query}`, token);

describe('contact groups', () => {
  it('creates a group (trimmed), records it, and refuses the same name in any case with 409', async () => {
    const res = await create({ teamId: team.id, name: '  Festival Bookers ' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      teamId: team.id,
      name: 'Festival Bookers',
      memberCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await logOf(team)).at(-1)).toEqual({
      type: 'contact_group.created',
      subjectType: 'contact_group',
      subjectId: String(res.json().id),
      payload: { name: 'Festival Bookers' },
    });
    expectConflict(await create({ teamId: team.id, name: 'festival BOOKERS' }));
    // Another team may use the name.
    const other = await ctx.newTeam(team.owner);
    expect((await create({ teamId: other.id, name: 'Festival Bookers' })).statusCode).toBe(201);
  });

  it('lists groups alphabetically in keyset pages, with member counts', async () => {
    const own = await ctx.newTeam(team.owner);
    const names = ['delta', 'Alpha', 'charlie', 'Bravo', 'echo'];
    const ids: Record<string, number> = {};
    for (const name of names) ids[name] = await newGroup(own, name);
    const a = await newContact(own, { name: 'A', groupIds: [ids.Alpha, ids.delta] });
    await newContact(own, { name: 'B', groupIds: [ids.Alpha] });
    await patch(a.id, own.owner.token, { groupIds: [ids.Alpha] });
    const seen: { name: string; memberCount: number }[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(
        `/api/v1/contacts/groups?teamId=${own.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        own.owner.token,
      );
      expect(res.statusCode, res.body).toBe(200);
      seen.push(...res.json().items);
      cursor = res.json().nextCursor;
    } while (cursor);
    expect(seen.map((g) => [g.name, g.memberCount])).toEqual([
      ['Alpha', 2],
      ['Bravo', 0],
      ['charlie', 0],
      ['delta', 0],
      ['echo', 0],
    ]);
  });

  it('refuses bad bodies and answers 404 to outsiders; keys need contacts:write to create', async () => {
    expectValidationPaths(await create({ teamId: team.id, name: '' }), ['/body/name']);
    expectValidationPaths(await create({ teamId: team.id, name: '   ' }), ['/body/name']);
    expectValidationPaths(await create({ teamId: team.id, name: 'x'.repeat(101) }), ['/body/name']);
    expectValidationPaths(await create({ team_id: team.id, name: 'snake' }), [
      '/body/teamId',
      '/body/team_id',
    ]);
    const outsider = await ctx.newUser();
    expect((await create({ teamId: team.id, name: 'Sneaky' }, outsider.token)).statusCode).toBe(404);
    expect((await list('', outsider.token)).statusCode).toBe(404);
    const readOnly = await ctx.newApiKey(team, []);
    expect((await list('', readOnly)).statusCode).toBe(200);
    const refused = await create({ teamId: team.id, name: 'Keyed' }, readOnly);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('insufficient_scope');
    const writer = await ctx.newApiKey(team, ['contacts:write']);
    expect((await create({ teamId: team.id, name: 'Keyed' }, writer)).statusCode).toBe(201);
  });
});
