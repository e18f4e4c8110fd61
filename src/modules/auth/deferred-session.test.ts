import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { teams } from '../../db/schema/index.ts';
import { auth, authPlugin } from '../../plugins/auth.ts';
import { useSecondApp } from './fixtures/second-app.ts';

// Process A is the test context's app; process B is a second instance over the same database.
const ctx = useTestContext();
const requestB = useSecondApp(ctx);

const UNAUTHORIZED = '{"error":"Unauthorized"}';
// Two apps over one database handle, on either engine; revocation.processes.test.ts runs a thousand rounds
// with two real processes on PostgreSQL.
const ROUNDS = 250;
const LANES = 4;

async function loggedOut() {
  const team = await ctx.newTeam();
  const track = await ctx.newTrack(team);
  const out = await ctx.request({ method: 'POST', url: '/api/v1/auth/logout', token: team.owner.token });
  expect(out.statusCode).toBe(204);
  return { team, track, token: team.owner.token };
}

describe('reads that look the session up in their own statement', () => {
  it('answer exactly 401 to an ended session, whatever the read would have answered', async () => {
    const { team, track, token } = await loggedOut();
    const otherTeam = await ctx.newTeam();
    const other = await ctx.newTrack(otherTeam);
    for (const url of [
      '/api/v1/auth/me',
      `/api/v1/teams/${team.id}`,
      `/api/v1/teams/${otherTeam.id}`,
      '/api/v1/teams/0',
      `/api/v1/tracks/${track.id}`, // found
      `/api/v1/tracks/${other.id}`, // another team's
      '/api/v1/tracks/999999', // missing
      '/api/v1/tracks/abc', // invalid
      `/api/v1/tracks/?teamId=${team.id}`,
      `/api/v1/tracks/?teamId=${otherTeam.id}`,
      '/api/v1/tracks/',
      `/api/v1/tracks/search/deep?teamId=${team.id}&q=${encodeURIComponent(track.title)}`,
      `/api/v1/tracks/search/deep?teamId=${otherTeam.id}&q=x`,
      `/api/v1/tracks/search/deep?teamId=${team.id}&q=%20`, // no word
      `/api/v1/financials/?teamId=${team.id}`,
      `/api/v1/financials/summary?teamId=${team.id}`,
      `/api/v1/financials/export?teamId=${team.id}`,
      '/api/v1/financials/1',
    ]) {
      const res = await ctx.request({ method: 'GET', url, token });
      expect(res.statusCode, url).toBe(401);
      expect(res.body).toBe(UNAUTHORIZED);
    }
  });

  it('answer exactly 401 to a key revoked since it was last seen, whatever the read would have answered', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const key = await ctx.newApiKey(team);
    const read = (url: string) => ctx.request({ method: 'GET', url, token: key });
    expect((await read(`/api/v1/tracks/${track.id}`)).statusCode).toBe(200);
    const { items } = (
      await ctx.request({ method: 'GET', url: `/api/v1/teams/${team.id}/api-keys`, token: team.owner.token })
    ).json();
    const revoked = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/api-keys/${items[0].id}`,
      token: team.owner.token,
    });
    expect(revoked.statusCode).toBe(204);
    for (const url of [
      `/api/v1/tracks/${track.id}`,
      '/api/v1/tracks/999999',
      '/api/v1/tracks/abc',
      '/api/v1/auth/me',
      `/api/v1/tracks/?teamId=${team.id}`,
      `/api/v1/tracks/search/deep?teamId=${team.id}&q=x`,
    ]) {
      const res = await read(url);
      expect(res.statusCode, url).toBe(401);
      expect(res.body).toBe(UNAUTHORIZED);
    }
  });

  it('may only be reads', async () => {
    const app = Fastify();
    await app.register(authPlugin, {
      authenticate: async () => null,
      principalIsActive: async () => false,
    });
    expect(() =>
      app.post('/x', { config: { auth: auth.session, deferSessionCheck: true } }, async () => ({})),
    ).toThrow(/only reads may defer the session check/);
    await app.close();
  });

  it(`stop a session and a key revoked in one process at once in another, ${ROUNDS} times over`, {
    timeout: 300_000,
  }, async () => {
    const team = await ctx.newTeam();
    // Thousands of key requests: a free plan would answer 429 long before the end.
    await ctx.database.db.update(teams).set({ planId: 'enterprise' }).where(eq(teams.id, team.id));
    const track = await ctx.newTrack(team);
    const read = (token: string) => requestB({ method: 'GET', url: `/api/v1/tracks/${track.id}`, token });
    let successesAfterRevoke = 0;
    const round = async (n: number) => {
      const login = await ctx.request({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: team.owner.email, password: team.owner.password },
      });
      const session = login.json().access_token as string;
      const created = await ctx.request({
        method: 'POST',
        url: `/api/v1/teams/${team.id}/api-keys`,
        token: session,
        payload: { name: `round ${n}`, scopes: [] },
      });
      const { id, key } = created.json() as { id: number; key: string };
      // B serves both while the revocations are under way, and once more each after they answered.
      const during = [read(session), read(key), read(session), read(key)];
      const [loggedOutRes, revokedRes] = await Promise.all([
        ctx.request({ method: 'POST', url: '/api/v1/auth/logout', token: session }),
        ctx.request({
          method: 'DELETE',
          url: `/api/v1/teams/${team.id}/api-keys/${id}`,
          token: team.owner.token,
        }),
      ]);
      expect([loggedOutRes.statusCode, revokedRes.statusCode]).toEqual([204, 204]);
      const after = await Promise.all([read(session), read(key)]);
      successesAfterRevoke += after.filter((res) => res.statusCode !== 401).length;
      for (const res of await Promise.all(during)) expect([200, 401]).toContain(res.statusCode);
    };
    // Rounds run in a few lanes at once: each round is still sequential, and rounds of other lanes add load.
    await Promise.all(
      Array.from({ length: LANES }, async (_, lane) => {
        for (let n = lane; n < ROUNDS; n += LANES) await round(n);
      }),
    );
    expect(successesAfterRevoke).toBe(0);
  });
});
