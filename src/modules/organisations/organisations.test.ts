import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { camps, domainEvents, organisations, organisationTeams, teams } from '../../db/schema/index.ts';
import { organisationHelpers, type TestOrganisation } from './organisations.test-support.ts';

const ctx = useTestContext();
const { newOrganisation, addTeam, organisationWithTeam, addOrganisationMember, newCamp, logOf } =
  organisationHelpers(ctx);

const url = (suffix = '') => `/api/v1/organisations${suffix}`;
const countOrganisations = async () =>
  (await ctx.database.db.select({ n: count() }).from(organisations))[0]!.n;

describe('POST /api/v1/organisations (extension)', () => {
  it('creates an organisation whose creator is its owner', async () => {
    const user = await ctx.newUser();
    const res = await ctx.request({
      method: 'POST',
      url: url(),
      token: user.token,
      payload: { name: ' Night Owl Records ' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      name: 'Night Owl Records',
      role: 'owner',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const members = await ctx.request({
      method: 'GET',
      url: url(`/${res.json().id}/members`),
      token: user.token,
    });
    expect(members.json().items).toEqual([expect.objectContaining({ userId: user.id, role: 'owner' })]);
  });

  it('refuses bad bodies with 400 and creates nothing', async () => {
    const user = await ctx.newUser();
    const before = await countOrganisations();
    for (const payload of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(201) },
      { name: 'A', extra: 1 },
      { name: 'a\u0000b' },
    ]) {
      const res = await ctx.request({ method: 'POST', url: url('/'), token: user.token, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect(await countOrganisations()).toBe(before);
  });
});

describe('reading organisations', () => {
  let org: TestOrganisation;
  let team: TestTeam;
  let teamMember: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    ({ organisation: org, team } = await organisationWithTeam());
    teamMember = await ctx.addMember(team, 'member');
    outsider = await ctx.newUser();
  });

  it('lists the organisations of members and of members of their teams, by name, page by page', async () => {
    const second = await newOrganisation(teamMember, 'aaa first by name');
    const first = await ctx.request({ method: 'GET', url: url('/?limit=1'), token: teamMember.token });
    expect(first.statusCode).toBe(200);
    expect(first.json().items).toEqual([
      {
        id: second.id,
        name: 'aaa first by name',
        role: 'owner',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    const next = await ctx.request({
      method: 'GET',
      url: url(`/?limit=1&cursor=${first.json().nextCursor}`),
      token: teamMember.token,
    });
    expect(next.json()).toEqual({
      items: [expect.objectContaining({ id: org.id, role: null })],
      nextCursor: null,
    });
    const none = await ctx.request({ method: 'GET', url: url('/'), token: outsider.token });
    expect(none.json()).toEqual({ items: [], nextCursor: null });
  });

  it('refuses bad page parameters with 400', async () => {
    for (const query of ['limit=0', 'limit=201', 'limit=x', 'cursor=nonsense']) {
      const res = await ctx.request({ method: 'GET', url: url(`/?${query}`), token: teamMember.token });
      expect(res.statusCode, query).toBe(400);
    }
  });

  it('shows one organisation to its members and its teams, and 404 to anyone else', async () => {
    const asTeamMember = await ctx.request({
      method: 'GET',
      url: url(`/${org.id}`),
      token: teamMember.token,
    });
    expect(asTeamMember.json()).toMatchObject({ id: org.id, name: org.name, role: null });
    const asOwner = await ctx.request({ method: 'GET', url: url(`/${org.id}`), token: org.owner.token });
    expect(asOwner.json().role).toBe('owner');
    for (const [path, status] of [
      [`/${org.id}`, 404],
      ['/999999', 404],
      ['/abc', 400],
      ['/0', 400],
      ['/99999999999', 400],
    ] as const) {
      const res = await ctx.request({ method: 'GET', url: url(path), token: outsider.token });
      expect(res.statusCode, path).toBe(status);
    }
  });

  it("lists the organisation's teams by name", async () => {
    const other = await ctx.newTeam(org.owner, 'AAA early team');
    await addTeam(org, other);
    const res = await ctx.request({ method: 'GET', url: url(`/${org.id}/teams`), token: teamMember.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toEqual([
      { id: other.id, name: 'AAA early team', addedAt: expect.any(String) },
      { id: team.id, name: team.name, addedAt: expect.any(String) },
    ]);
  });
});

describe('changing and deleting an organisation (extensions)', () => {
  it('lets owners rename it, recording the change in every team of it', async () => {
    const { organisation, team } = await organisationWithTeam();
    const admin = await addOrganisationMember(organisation, 'admin');
    const refused = await ctx.request({
      method: 'PATCH',
      url: url(`/${organisation.id}`),
      token: admin.token,
      payload: { name: 'Nope' },
    });
    expect(refused.statusCode).toBe(403);
    const res = await ctx.request({
      method: 'PATCH',
      url: url(`/${organisation.id}`),
      token: organisation.owner.token,
      payload: { name: 'Renamed' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: organisation.id, name: 'Renamed', role: 'owner' });
    // One event of the organisation, however many teams it has.
    expect(await logOf({ organisationId: organisation.id }, 'organisation.renamed')).toEqual([
      {
        type: 'organisation.renamed',
        subjectType: 'organisation',
        subjectId: String(organisation.id),
        actorUserId: organisation.owner.id,
        payload: { name: 'Renamed' },
      },
    ]);
    expect(await logOf({ teamId: team.id }, 'organisation.renamed')).toEqual([]);
    const empty = await ctx.request({
      method: 'PATCH',
      url: url(`/${organisation.id}`),
      token: organisation.owner.token,
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
  });

  it('lets owners delete it with its camps; its teams stay', async () => {
    const { organisation, team } = await organisationWithTeam();
    const camp = await newCamp(organisation);
    const admin = await addOrganisationMember(organisation, 'admin');
    const refused = await ctx.request({
      method: 'DELETE',
      url: url(`/${organisation.id}`),
      token: admin.token,
    });
    expect(refused.statusCode).toBe(403);
    const res = await ctx.request({
      method: 'DELETE',
      url: url(`/${organisation.id}`),
      token: organisation.owner.token,
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const gone = await ctx.request({
      method: 'GET',
      url: url(`/${organisation.id}`),
      token: organisation.owner.token,
    });
    expect(gone.statusCode).toBe(404);
    const db = ctx.database.db;
    expect(await db.select().from(camps).where(eq(camps.id, camp.id))).toEqual([]);
    expect(await db.select({ id: teams.id }).from(teams).where(eq(teams.id, team.id))).toEqual([
      { id: team.id },
    ]);
    // The organisation's events went with it; the event of its deletion stays, owned by neither.
    expect(await logOf({ organisationId: organisation.id })).toEqual([]);
    const deleted = await db
      .select({ organisationId: domainEvents.organisationId, actorUserId: domainEvents.actorUserId })
      .from(domainEvents)
      .where(
        and(
          eq(domainEvents.type, 'organisation.deleted'),
          eq(domainEvents.subjectId, String(organisation.id)),
        ),
      );
    expect(deleted).toEqual([{ organisationId: null, actorUserId: organisation.owner.id }]);
  });
});

describe('the teams of an organisation (extensions)', () => {
  it('adds a team its caller manages in both places, once, and never to two organisations', async () => {
    const organisation = await newOrganisation();
    const team = await ctx.newTeam(organisation.owner);
    const res = await ctx.request({
      method: 'POST',
      url: url(`/${organisation.id}/teams`),
      token: organisation.owner.token,
      payload: { teamId: team.id },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: team.id, name: team.name, addedAt: expect.any(String) });
    expect(await logOf({ teamId: team.id }, 'organisation.team_added')).toHaveLength(1);

    const again = await ctx.request({
      method: 'POST',
      url: url(`/${organisation.id}/teams`),
      token: organisation.owner.token,
      payload: { teamId: team.id },
    });
    expect(again.statusCode).toBe(409);
    const otherOrg = await newOrganisation(organisation.owner);
    const elsewhere = await ctx.request({
      method: 'POST',
      url: url(`/${otherOrg.id}/teams`),
      token: organisation.owner.token,
      payload: { teamId: team.id },
    });
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.json().error).toContain('another organisation');
  });

  it('needs an owner or admin of the organisation and of the team', async () => {
    const organisation = await newOrganisation();
    const orgMember = await addOrganisationMember(organisation, 'member');
    const team = await ctx.newTeam(orgMember);
    const asOrgMember = await ctx.request({
      method: 'POST',
      url: url(`/${organisation.id}/teams`),
      token: orgMember.token,
      payload: { teamId: team.id },
    });
    expect(asOrgMember.statusCode).toBe(403);
    // The organisation's owner is only a plain member of the team: 403; not in it at all: 404.
    await ctx.addMember(team, 'member', organisation.owner);
    const plainInTeam = await ctx.request({
      method: 'POST',
      url: url(`/${organisation.id}/teams`),
      token: organisation.owner.token,
      payload: { teamId: team.id },
    });
    expect(plainInTeam.statusCode).toBe(403);
    const foreign = await ctx.newTeam(orgMember);
    const notInTeam = await ctx.request({
      method: 'POST',
      url: url(`/${organisation.id}/teams`),
      token: organisation.owner.token,
      payload: { teamId: foreign.id },
    });
    expect(notInTeam.statusCode).toBe(404);
    for (const payload of [{}, { teamId: 'x' }, { teamId: 1, more: 1 }]) {
      const bad = await ctx.request({
        method: 'POST',
        url: url(`/${organisation.id}/teams`),
        token: organisation.owner.token,
        payload,
      });
      expect(bad.statusCode).toBe(400);
    }
    const rows = await ctx.database.db
      .select()
      .from(organisationTeams)
      .where(eq(organisationTeams.organisationId, organisation.id));
    expect(rows).toEqual([]);
  });

  it('lets managers of the organisation or of the team take it out, and nobody else', async () => {
    const { organisation, team } = await organisationWithTeam();
    const teamAdmin = await ctx.addMember(team, 'admin');
    const teamMember = await ctx.addMember(team, 'member');
    const remove = (token: string, teamId = team.id) =>
      ctx.request({ method: 'DELETE', url: url(`/${organisation.id}/teams/${teamId}`), token });
    expect((await remove(teamMember.token)).statusCode).toBe(403);
    expect((await remove(teamAdmin.token)).statusCode).toBe(204);
    expect(await logOf({ teamId: team.id }, 'organisation.team_removed')).toEqual([
      expect.objectContaining({ actorUserId: teamAdmin.id }),
    ]);
    // Out of the organisation, the team's members no longer read it.
    expect((await remove(teamAdmin.token)).statusCode).toBe(404);
    expect((await remove(organisation.owner.token)).statusCode).toBe(404);
  });
});
