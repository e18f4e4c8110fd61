import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { contactHelpers } from './contacts.test-support.ts';

const ctx = useTestContext();
const { post, get } = contactHelpers(ctx);

const lookup = (token: string, payload: object) =>
  ctx.request({ method: 'POST', url: '/api/v1/contacts/platform-users', token, payload });

describe('contacts: teamId and the specification’s team_id', () => {
  it('creates a contact with teamId or team_id, and refuses the two when they differ', async () => {
    const team = await ctx.newTeam();
    const camel = await post(team.owner.token, { teamId: team.id, name: 'Camel' });
    expect(camel.statusCode, camel.body).toBe(201);
    expect(camel.json()).toMatchObject({ teamId: team.id, name: 'Camel', leadStatus: 'new' });
    const snake = await post(team.owner.token, { team_id: team.id, name: 'Snake' });
    expect(snake.statusCode, snake.body).toBe(201);
    const both = await post(team.owner.token, { teamId: team.id, team_id: team.id, name: 'Both' });
    expect(both.statusCode, both.body).toBe(201);
    const other = await ctx.newTeam(team.owner);
    const conflict = await post(team.owner.token, { teamId: team.id, team_id: other.id, name: 'Clash' });
    expect(conflict.statusCode).toBe(400);
    expect(conflict.json().details).toEqual([
      {
        path: '/body/team_id',
        message: 'is the older name of teamId and differs from it: send one of them (teamId is preferred)',
      },
    ]);
    const neither = await post(team.owner.token, { name: 'Nowhere' });
    expect(neither.json().details).toEqual([
      { path: '/body/teamId', message: 'is required (or its older name team_id)' },
    ]);
    const names = (await get(`/api/v1/contacts/?teamId=${team.id}`, team.owner.token))
      .json()
      .items.map((c: { name: string }) => c.name);
    expect(names).toEqual(['Both', 'Camel', 'Snake']);
  });

  it('keeps another team’s id 404 under either name, for a key too', async () => {
    const team = await ctx.newTeam();
    const stranger = await ctx.newTeam();
    for (const body of [{ teamId: stranger.id }, { team_id: stranger.id }]) {
      expect((await post(team.owner.token, { ...body, name: 'x' })).statusCode).toBe(404);
    }
    const key = await ctx.newApiKey(team, ['contacts:write']);
    expect((await post(key, { teamId: stranger.id, name: 'x' })).statusCode).toBe(404);
    expect((await post(key, { teamId: team.id, name: 'Keyed' })).statusCode).toBe(201);
  });

  it('looks platform users up with teamId or team_id', async () => {
    const team = await ctx.newTeam();
    const emails = ['nobody@example.test'];
    for (const body of [{ teamId: team.id }, { team_id: team.id }]) {
      const res = await lookup(team.owner.token, { ...body, emails });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().results).toEqual([
        { email: emails[0], isPlatformUser: false, userId: null, name: null },
      ]);
    }
    const other = await ctx.newTeam(team.owner);
    const conflict = await lookup(team.owner.token, { teamId: team.id, team_id: other.id, emails });
    expect(conflict.statusCode).toBe(400);
    expect((await lookup(team.owner.token, { emails })).json().details).toEqual([
      { path: '/body/teamId', message: 'is required (or its older name team_id)' },
    ]);
    const stranger = await ctx.newTeam();
    expect((await lookup(team.owner.token, { team_id: stranger.id, emails })).statusCode).toBe(404);
  });
});
