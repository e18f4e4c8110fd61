import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { buildings, studios } from '../../../db/schema/index.ts';
import { organisationHelpers, type TestOrganisation } from '../organisations.test-support.ts';

const ctx = useTestContext();
const { organisationWithTeam, addOrganisationMember, logOf } = organisationHelpers(ctx);

let org: TestOrganisation;
let team: TestTeam;
let admin: TestUser;
let teamMember: TestUser;

beforeAll(async () => {
  ({ organisation: org, team } = await organisationWithTeam());
  admin = await addOrganisationMember(org, 'admin');
  teamMember = await ctx.addMember(team, 'member');
});

const url = (suffix: string) => `/api/v1/organisations/${org.id}${suffix}`;
const post = (suffix: string, payload: object, token = admin.token) =>
  ctx.request({ method: 'POST', url: url(suffix), token, payload });

describe('buildings', () => {
  it('are created, listed by name, changed and deleted by owners and admins', async () => {
    const created = await post('/buildings', {
      name: 'Main House',
      address: ' 1 Harbour St ',
      timezone: 'europe/berlin',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      id: expect.any(Number),
      organisationId: org.id,
      name: 'Main House',
      address: '1 Harbour St',
      timezone: 'Europe/Berlin',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const annex = (await post('/buildings', { name: 'annex' })).json();
    const list = await ctx.request({
      method: 'GET',
      url: url('/buildings?limit=1'),
      token: teamMember.token,
    });
    expect(list.json().items.map((b: { name: string }) => b.name)).toEqual(['annex']);
    const rest = await ctx.request({
      method: 'GET',
      url: url(`/buildings?limit=1&cursor=${list.json().nextCursor}`),
      token: teamMember.token,
    });
    expect(rest.json().items.map((b: { name: string }) => b.name)).toEqual(['Main House']);

    const patched = await ctx.request({
      method: 'PATCH',
      url: url(`/buildings/${annex.id}`),
      token: admin.token,
      payload: { address: 'Back yard', timezone: null },
    });
    expect(patched.json()).toMatchObject({ name: 'annex', address: 'Back yard', timezone: null });
    const removed = await ctx.request({
      method: 'DELETE',
      url: url(`/buildings/${annex.id}`),
      token: admin.token,
    });
    expect(removed.statusCode).toBe(204);
    expect(
      (await logOf({ organisationId: org.id }))
        .filter((e) => e.subjectType === 'building')
        .map((e) => e.type),
    ).toEqual(['building.created', 'building.created', 'building.updated', 'building.deleted']);
  });

  it('refuse plain members, unknown time zones and bad fields, and change nothing', async () => {
    const before = (await ctx.database.db.select({ n: count() }).from(buildings))[0]!.n;
    expect((await post('/buildings', { name: 'X' }, teamMember.token)).statusCode).toBe(403);
    const member = await addOrganisationMember(org, 'member');
    expect((await post('/buildings', { name: 'X' }, member.token)).statusCode).toBe(403);
    const zone = await post('/buildings', { name: 'X', timezone: 'Mars/Olympus' });
    expect(zone.statusCode).toBe(400);
    expect(zone.json().details).toEqual([{ path: '/body/timezone', message: expect.any(String) }]);
    for (const payload of [{ name: '' }, { name: 'X', address: 'a'.repeat(501) }, { name: 'X', floor: 2 }]) {
      expect((await post('/buildings', payload)).statusCode).toBe(400);
    }
    expect((await ctx.database.db.select({ n: count() }).from(buildings))[0]!.n).toBe(before);
    const missing = await ctx.request({
      method: 'PATCH',
      url: url('/buildings/999999'),
      token: admin.token,
      payload: { name: 'Y' },
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('studios', () => {
  it('live in a building of the organisation, listed with it, names unique per building', async () => {
    const house = (await post('/buildings', { name: 'Studio House', timezone: 'UTC' })).json();
    const res = await post('/studios', { buildingId: house.id, name: 'Room A' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      organisationId: org.id,
      buildingId: house.id,
      name: 'Room A',
      building: { id: house.id, name: 'Studio House', address: null, timezone: 'UTC' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const taken = await post('/studios', { buildingId: house.id, name: 'room a' });
    expect(taken.statusCode).toBe(409);
    const b = (await post('/studios', { buildingId: house.id, name: 'Room B' })).json();
    const rename = await ctx.request({
      method: 'PATCH',
      url: url(`/studios/${b.id}`),
      token: admin.token,
      payload: { name: 'ROOM A' },
    });
    expect(rename.statusCode).toBe(409);
    const list = await ctx.request({ method: 'GET', url: url('/studios'), token: teamMember.token });
    expect(list.json().items.map((s: { name: string }) => s.name)).toEqual(['Room A', 'Room B']);
  });

  it("refuses another organisation's building and moves between the organisation's own", async () => {
    const { organisation: other } = await organisationWithTeam();
    const foreign = (
      await ctx.request({
        method: 'POST',
        url: `/api/v1/organisations/${other.id}/buildings`,
        token: other.owner.token,
        payload: { name: 'Elsewhere' },
      })
    ).json();
    expect((await post('/studios', { buildingId: foreign.id, name: 'Sneaky' })).statusCode).toBe(404);
    const [one, two] = [
      (await post('/buildings', { name: 'One' })).json(),
      (await post('/buildings', { name: 'Two' })).json(),
    ];
    const studio = (await post('/studios', { buildingId: one.id, name: 'Booth' })).json();
    const moved = await ctx.request({
      method: 'PATCH',
      url: url(`/studios/${studio.id}`),
      token: admin.token,
      payload: { buildingId: two.id },
    });
    expect(moved.json()).toMatchObject({ buildingId: two.id, building: { name: 'Two' } });
    const refused = await ctx.request({
      method: 'PATCH',
      url: url(`/studios/${studio.id}`),
      token: admin.token,
      payload: { buildingId: foreign.id },
    });
    expect(refused.statusCode).toBe(404);
    // Another organisation's studio cannot be reached through this one.
    const theirs = (
      await ctx.request({
        method: 'POST',
        url: `/api/v1/organisations/${other.id}/studios`,
        token: other.owner.token,
        payload: { buildingId: foreign.id, name: 'Theirs' },
      })
    ).json();
    expect(
      (await ctx.request({ method: 'DELETE', url: url(`/studios/${theirs.id}`), token: admin.token }))
        .statusCode,
    ).toBe(404);
    expect(
      (await ctx.request({ method: 'DELETE', url: url(`/studios/${studio.id}`), token: admin.token }))
        .statusCode,
    ).toBe(204);
  });

  it('go with their building', async () => {
    const house = (await post('/buildings', { name: 'Doomed' })).json();
    const studio = (await post('/studios', { buildingId: house.id, name: 'Doomed room' })).json();
    await ctx.request({ method: 'DELETE', url: url(`/buildings/${house.id}`), token: admin.token });
    expect(await ctx.database.db.select().from(studios).where(eq(studios.id, studio.id))).toEqual([]);
  });
});
