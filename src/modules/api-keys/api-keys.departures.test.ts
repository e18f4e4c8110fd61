import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { users } from '../../db/schema/index.ts';
import { type Requester, useSecondApp } from '../auth/fixtures/second-app.ts';
import { purgeDeletedAccounts } from '../users/account.jobs.ts';

// Process A is the test context's app; process B is a second instance over the same database.
const ctx = useTestContext();
const requestB = useSecondApp(ctx);

const UNAUTHORIZED = '{"error":"Unauthorized"}';

/** A `tracks:write` key created by `creator`, who must be an owner or admin of the team. */
async function keyBy(team: TestTeam, creator: TestUser): Promise<{ id: number; key: string }> {
  const res = await ctx.request({
    method: 'POST',
    url: `/api/v1/teams/${team.id}/api-keys`,
    token: creator.token,
    payload: { name: `by ${creator.email}`, scopes: ['tracks:write'] },
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

/** A team with its owner, two admins, a key by each admin and a track the keys may change. */
async function teamWithAdminKeys() {
  const team = await ctx.newTeam();
  const leaving = await ctx.addMember(team, 'admin');
  const staying = await ctx.addMember(team, 'admin');
  const track = await ctx.newTrack(team);
  return {
    team,
    leaving,
    staying,
    track,
    leavingKey: await keyBy(team, leaving),
    stayingKey: await keyBy(team, staying),
  };
}

type Setup = Awaited<ReturnType<typeof teamWithAdminKeys>>;

const renameTrack = (request: Requester, key: string, trackId: number) =>
  request({ method: 'PATCH', url: `/api/v1/tracks/${trackId}`, token: key, payload: { title: 'Renamed' } });

async function expectWorks(key: string, trackId: number) {
  expect((await renameTrack(ctx.request, key, trackId)).statusCode).toBe(200);
  expect((await renameTrack(requestB, key, trackId)).statusCode).toBe(200);
}

async function expectRevoked(key: string, trackId: number) {
  for (const request of [ctx.request, requestB]) {
    const res = await renameTrack(request, key, trackId);
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe(UNAUTHORIZED);
  }
}

async function listedKeys(team: TestTeam) {
  const res = await ctx.request({
    method: 'GET',
    url: `/api/v1/teams/${team.id}/api-keys`,
    token: team.owner.token,
  });
  expect(res.statusCode).toBe(200);
  return (res.json().items as { id: number; createdBy: string | null }[]).map(({ id, createdBy }) => ({
    id,
    createdBy,
  }));
}

/** Both keys work on both processes before the change, only the other admin's after it. */
async function expectOnlyLeavingKeyRevoked(setup: Setup, change: () => Promise<void>) {
  const { team, track, leavingKey, stayingKey, staying } = setup;
  await expectWorks(leavingKey.key, track.id);
  await change();
  await expectRevoked(leavingKey.key, track.id);
  await expectWorks(stayingKey.key, track.id);
  expect(await listedKeys(team)).toEqual([{ id: stayingKey.id, createdBy: staying.id }]);
}

describe('API keys of people who lose their admin rights', () => {
  it('lists who created each key', async () => {
    const { team, leaving, staying, leavingKey, stayingKey } = await teamWithAdminKeys();
    const ownKey = await keyBy(team, team.owner);
    expect(await listedKeys(team)).toEqual([
      { id: ownKey.id, createdBy: team.owner.id },
      { id: stayingKey.id, createdBy: staying.id },
      { id: leavingKey.id, createdBy: leaving.id },
    ]);
  });

  it('revokes the keys of a removed admin at once, in every process', async () => {
    const setup = await teamWithAdminKeys();
    await expectOnlyLeavingKeyRevoked(setup, async () => {
      const res = await ctx.request({
        method: 'DELETE',
        url: `/api/v1/teams/${setup.team.id}/members/${setup.leaving.id}`,
        token: setup.team.owner.token,
      });
      expect(res.statusCode).toBe(204);
    });
  });

  it('revokes the keys of an admin who leaves the team', async () => {
    const setup = await teamWithAdminKeys();
    await expectOnlyLeavingKeyRevoked(setup, async () => {
      const res = await ctx.request({
        method: 'DELETE',
        url: `/api/v1/teams/${setup.team.id}/members/${setup.leaving.id}`,
        token: setup.leaving.token,
      });
      expect(res.statusCode).toBe(204);
    });
  });

  it('revokes the keys of an admin demoted to member, for good (promoting again does not revive them)', async () => {
    const setup = await teamWithAdminKeys();
    const setRole = async (role: string) => {
      const res = await ctx.request({
        method: 'PATCH',
        url: `/api/v1/teams/${setup.team.id}/members/${setup.leaving.id}`,
        token: setup.team.owner.token,
        payload: { role },
      });
      expect(res.statusCode).toBe(200);
    };
    await expectOnlyLeavingKeyRevoked(setup, () => setRole('member'));
    await setRole('admin');
    await expectRevoked(setup.leavingKey.key, setup.track.id);
  });

  it('keeps the keys of an admin made owner, and of an owner made admin', async () => {
    const { team, leaving, leavingKey, track } = await teamWithAdminKeys();
    for (const role of ['owner', 'admin']) {
      const res = await ctx.request({
        method: 'PATCH',
        url: `/api/v1/teams/${team.id}/members/${leaving.id}`,
        token: team.owner.token,
        payload: { role },
      });
      expect(res.statusCode).toBe(200);
      await expectWorks(leavingKey.key, track.id);
    }
  });

  it('revokes the keys of an admin who deletes their account, in every team', async () => {
    const setup = await teamWithAdminKeys();
    const other = await ctx.newTeam();
    await ctx.addMember(other, 'admin', setup.leaving);
    const otherTrack = await ctx.newTrack(other);
    const otherKey = await keyBy(other, setup.leaving);
    await expectOnlyLeavingKeyRevoked(setup, async () => {
      const res = await ctx.request({
        method: 'DELETE',
        url: '/api/v1/user/account',
        token: setup.leaving.token,
        payload: { confirmation: 'DELETE MY ACCOUNT' },
      });
      expect(res.statusCode).toBe(202);
    });
    await expectRevoked(otherKey.key, otherTrack.id);
  });

  it('revokes, when the account is purged, keys that outlived the deletion request', async () => {
    const { team, leaving, leavingKey, track } = await teamWithAdminKeys();
    // An account scheduled for deletion whose key is still live (as requests made before keys were revoked with it left them).
    const requestedAt = new Date();
    await ctx.database.db
      .update(users)
      .set({ deletionRequestedAt: requestedAt })
      .where(eq(users.id, leaving.id));
    await expectWorks(leavingKey.key, track.id);
    const later = { now: () => new Date(requestedAt.getTime() + 31 * 86_400_000) };
    expect(
      await purgeDeletedAccounts(ctx.database.db, later, ctx.app.services.departures),
    ).toBeGreaterThanOrEqual(1);
    await expectRevoked(leavingKey.key, track.id);
    expect((await listedKeys(team)).map((k) => k.id)).not.toContain(leavingKey.id);
  });
});
