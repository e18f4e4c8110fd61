import { beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { teamEvents } from '../../../test/helpers/events.ts';
import { SLUG_PATTERN } from '../../shared/slugs.ts';
import { insertTeamWithOwner } from './teams.repository.ts';

const ctx = useTestContext();
const slugPattern = new RegExp(SLUG_PATTERN);

let owner: TestUser;

beforeAll(async () => {
  owner = await ctx.newUser();
});

async function createTeam(name: string, user = owner) {
  const res = await ctx.request({
    method: 'POST',
    url: '/api/v1/teams/',
    token: user.token,
    payload: { name },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; name: string; slug: string };
}

const patch = (teamId: number, payload: object, token = owner.token) =>
  ctx.request({ method: 'PATCH', url: `/api/v1/teams/${teamId}`, token, payload });

describe('team slugs', () => {
  it('come from the name; the same name again gets -2, -3, and reads show them', async () => {
    const tag = ctx.unique();
    const first = await createTeam(`Café Ölrich & Söhne ${tag}`);
    const second = await createTeam(`Café Ölrich & Söhne ${tag}`);
    const third = await createTeam(`cafe  olrich and sohne ${tag}!`);
    const base = `cafe-olrich-and-sohne-${tag}`;
    expect([first.slug, second.slug, third.slug]).toEqual([base, `${base}-2`, `${base}-3`]);

    const list = await ctx.request({ method: 'GET', url: '/api/v1/teams/?limit=200', token: owner.token });
    const listed = list.json().items.filter((t: { id: number }) => [first.id, second.id].includes(t.id));
    expect(listed.map((t: { slug: string }) => t.slug)).toEqual([base, `${base}-2`]);
    const one = await ctx.request({ method: 'GET', url: `/api/v1/teams/${third.id}`, token: owner.token });
    expect(one.json().slug).toBe(`${base}-3`);
  });

  it('fall back to "team" for a name without letters or digits, and stay within 64 characters', async () => {
    for (const name of ['🎵🎵🎵', '東京', '!!!'])
      expect((await createTeam(name)).slug).toMatch(/^team(-\d+)?$/);
    const long = await createTeam(`${'Very Long Band Name '.repeat(4)}${ctx.unique()}`);
    expect(long.slug).toMatch(slugPattern);
    expect(long.slug.length).toBeLessThanOrEqual(50);
  });

  it('stay unique when teams of one name are created at the same moment', async () => {
    const name = `Race ${ctx.unique()}`;
    const db = ctx.database.db;
    const teams = await Promise.all(
      Array.from({ length: 6 }, () => insertTeamWithOwner(db, { name, ownerId: owner.id })),
    );
    const slugs = teams.map((t) => t.slug);
    expect(new Set(slugs).size).toBe(6);
    for (const slug of slugs) expect(slug).toMatch(slugPattern);
  });
});

describe('PATCH /teams/{id}', () => {
  it('lets owners and admins change the slug and the name; a rename keeps the slug', async () => {
    const team = await createTeam(`Patchable ${ctx.unique()}`);
    const admin = await ctx.addMember({ id: team.id, name: team.name, owner }, 'admin');
    const slug = `new-${ctx.unique()}`;
    const res = await patch(team.id, { slug });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: team.id, slug, name: team.name, role: 'owner' });

    const renamed = await patch(team.id, { name: '  Renamed Band  ' }, admin.token);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Renamed Band', slug, role: 'admin' });
    expect((await patch(team.id, { slug })).statusCode).toBe(200);

    const events = await teamEvents(ctx.database.db, team.id, 'team');
    expect(events.slice(0, 2).map(({ type, payload }) => ({ type, payload }))).toEqual([
      { type: 'team.updated', payload: { slug } },
      { type: 'team.updated', payload: { name: 'Renamed Band' } },
    ]);
  });

  it("refuses another team's slug with 409, bad slugs with 400, members with 403, outsiders with 404", async () => {
    const mine = await createTeam(`Mine ${ctx.unique()}`);
    const theirs = await createTeam(`Theirs ${ctx.unique()}`);
    const taken = await patch(mine.id, { slug: theirs.slug, name: 'Not applied' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('conflict');

    for (const payload of [
      {},
      { slug: '' },
      { slug: 'Upper-Case' },
      { slug: '-leading' },
      { slug: 'trailing-' },
      { slug: 'under_score' },
      { slug: 'spa ce' },
      { slug: 'a'.repeat(65) },
      { slug: 'ok', extra: true },
      { name: '   ' },
    ]) {
      const res = await patch(mine.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }

    const member = await ctx.addMember({ id: mine.id, name: mine.name, owner }, 'member');
    const byMember = await patch(mine.id, { slug: `member-${ctx.unique()}` }, member.token);
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().code).toBe('forbidden');
    const outsider = await ctx.newUser();
    expect((await patch(mine.id, { slug: `outsider-${ctx.unique()}` }, outsider.token)).statusCode).toBe(404);

    const after = await ctx.request({ method: 'GET', url: `/api/v1/teams/${mine.id}`, token: owner.token });
    expect(after.json()).toMatchObject({ name: mine.name, slug: mine.slug });
  });
});
