import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { requestAccountDeletion } from '../../../test/helpers/account.ts';
import { type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { webhookEndpoints } from '../../db/schema/index.ts';
import { organisationHelpers } from '../organisations/organisations.test-support.ts';
import { deliverWebhooks } from './fixtures/deliver.ts';
import { useQueueReceiver } from './fixtures/queue-receiver.ts';

const ctx = useTestContext({ env: { WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1' } });
const { organisationWithTeam, addOrganisationMember } = organisationHelpers(ctx);
const receiver = useQueueReceiver(ctx);

const runJobs = () => deliverWebhooks(ctx);

type Endpoint = { id: number; enabled: boolean; pausedAt: string | null; pausedReason: string | null };

async function register(token: string, owner: { teamId: number } | { organisationId: number }, path: string) {
  const res = await ctx.request({
    method: 'POST',
    url: '/api/v1/webhooks/',
    token,
    payload: { url: `${receiver.url}/${path}`, ...owner },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Endpoint;
}

async function endpoint(id: number, token: string): Promise<Endpoint> {
  const res = await ctx.request({ method: 'GET', url: '/api/v1/webhooks/?limit=200', token });
  expect(res.statusCode).toBe(200);
  const found = (res.json().items as Endpoint[]).find((e) => e.id === id);
  if (found) return found;
  const orgs = await ctx.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  throw new Error(`endpoint ${id} not listed (${orgs.length} rows)`);
}

/** A team whose admin registered one endpoint by session and one by a key of theirs; the owner one more. */
async function teamWithAdminEndpoints() {
  const team = await ctx.newTeam();
  const admin = await ctx.addMember(team, 'admin');
  const keyRes = await ctx.request({
    method: 'POST',
    url: `/api/v1/teams/${team.id}/api-keys`,
    token: admin.token,
    payload: { name: 'integration', scopes: ['webhooks:write'] },
  });
  expect(keyRes.statusCode).toBe(201);
  const key = keyRes.json() as { id: number; key: string };
  const bySession = await register(admin.token, { teamId: team.id }, 'by-session');
  const byKey = await register(key.key, { teamId: team.id }, 'by-key');
  const owners = await register(team.owner.token, { teamId: team.id }, 'owners');
  return { team, admin, key, bySession, byKey, owners };
}

/** Records a financial entry (event `financial.entry.created`) and runs the deliveries; answers the paths hit. */
async function emitAndDeliver(team: TestTeam): Promise<string[]> {
  const res = await ctx.request({
    method: 'POST',
    url: '/api/v1/financials/',
    token: team.owner.token,
    payload: { teamId: team.id, isIncome: true, amount: 10, occurredOn: '2026-01-01' },
  });
  expect(res.statusCode, res.body).toBe(201);
  await runJobs();
  return receiver.received.map((r) => r.path).sort();
}

async function notificationsOf(user: TestUser) {
  const res = await ctx.request({ method: 'GET', url: '/api/v1/user/notifications', token: user.token });
  expect(res.statusCode).toBe(200);
  return (res.json().items as { kind: string; data: Record<string, unknown> }[]).filter(
    (n) => n.kind === 'webhook_paused',
  );
}

const changeRole = (team: TestTeam, user: TestUser, role: string) =>
  ctx.request({
    method: 'PATCH',
    url: `/api/v1/teams/${team.id}/members/${user.id}`,
    token: team.owner.token,
    payload: { role },
  });
const removeMember = (team: TestTeam, user: TestUser, by: TestUser) =>
  ctx.request({ method: 'DELETE', url: `/api/v1/teams/${team.id}/members/${user.id}`, token: by.token });

describe("a team admin's endpoints pause when their right to register them ends", () => {
  const departures: [
    string,
    string,
    (s: Awaited<ReturnType<typeof teamWithAdminEndpoints>>) => Promise<number>,
  ][] = [
    [
      'is removed',
      'registrant_removed',
      async (s) => (await removeMember(s.team, s.admin, s.team.owner)).statusCode,
    ],
    ['leaves', 'registrant_left', async (s) => (await removeMember(s.team, s.admin, s.admin)).statusCode],
    [
      'is demoted',
      'registrant_demoted',
      async (s) => (await changeRole(s.team, s.admin, 'member')).statusCode,
    ],
    [
      'deletes the account',
      'registrant_account_deleted',
      async (s) => (await requestAccountDeletion(ctx, s.admin.token)).statusCode,
    ],
  ];
  for (const [what, reason, change] of departures) {
    it(`when the admin ${what}: both of theirs pause, the owners are told, nothing more is delivered`, async () => {
      const setup = await teamWithAdminEndpoints();
      const { team, bySession, byKey, owners } = setup;
      expect(await emitAndDeliver(team)).toEqual(['/hook/by-key', '/hook/by-session', '/hook/owners']);
      receiver.received.length = 0;
      expect(await change(setup)).toBeLessThan(300);

      const ownerToken = team.owner.token;
      expect(await endpoint(bySession.id, ownerToken)).toMatchObject({
        enabled: false,
        pausedReason: reason,
        pausedAt: expect.any(String),
      });
      expect(await endpoint(byKey.id, ownerToken)).toMatchObject({
        enabled: false,
        pausedReason: 'key_revoked',
      });
      expect(await endpoint(owners.id, ownerToken)).toMatchObject({ enabled: true, pausedReason: null });
      expect(await emitAndDeliver(team)).toEqual(['/hook/owners']);
      const told = await notificationsOf(team.owner);
      expect(told.map((n) => n.data.endpointId).sort()).toEqual([bySession.id, byKey.id].sort());
    });
  }

  it('revoking the key pauses the endpoint it registered, and only that one', async () => {
    const { team, key, bySession, byKey } = await teamWithAdminEndpoints();
    const other = await ctx.addMember(team, 'admin');
    const revoked = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/api-keys/${key.id}`,
      token: team.owner.token,
    });
    expect(revoked.statusCode).toBe(204);
    expect(await endpoint(byKey.id, team.owner.token)).toMatchObject({
      enabled: false,
      pausedReason: 'key_revoked',
    });
    expect(await endpoint(bySession.id, team.owner.token)).toMatchObject({ enabled: true, pausedAt: null });
    expect(await emitAndDeliver(team)).toEqual(['/hook/by-session', '/hook/owners']);
    expect(await notificationsOf(other)).toHaveLength(1);
  });

  it('an event recorded before the pause is not delivered after it', async () => {
    const { team, admin } = await teamWithAdminEndpoints();
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/financials/',
      token: team.owner.token,
      payload: { teamId: team.id, isIncome: false, amount: 3, occurredOn: '2026-01-02' },
    });
    expect(res.statusCode).toBe(201);
    await removeMember(team, admin, team.owner);
    await runJobs();
    expect(receiver.received.map((r) => r.path)).toEqual(['/hook/owners']);
  });

  it('an admin re-enables a paused endpoint in one call, and deliveries resume', async () => {
    const { team, admin, bySession } = await teamWithAdminEndpoints();
    await removeMember(team, admin, team.owner);
    const test = await ctx.request({
      method: 'POST',
      url: `/api/v1/webhooks/${bySession.id}/test`,
      token: team.owner.token,
    });
    expect(test.statusCode).toBe(409);
    const patched = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/webhooks/${bySession.id}`,
      token: team.owner.token,
      payload: { enabled: true },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      enabled: true,
      pausedAt: null,
      pausedReason: null,
      disabledAt: null,
    });
    expect(await emitAndDeliver(team)).toEqual(['/hook/by-session', '/hook/owners']);
  });
});

describe("an organisation admin's endpoints pause when their role ends", () => {
  for (const [what, reason] of [
    ['removed', 'registrant_removed'],
    ['demoted', 'registrant_demoted'],
  ] as const) {
    it(`when the admin is ${what}`, async () => {
      const { organisation } = await organisationWithTeam();
      const admin = await addOrganisationMember(organisation, 'admin');
      const mine = await register(admin.token, { organisationId: organisation.id }, 'org-admin');
      const theirs = await register(
        organisation.owner.token,
        { organisationId: organisation.id },
        'org-owner',
      );
      const url = `/api/v1/organisations/${organisation.id}/members/${admin.id}`;
      const res =
        what === 'removed'
          ? await ctx.request({ method: 'DELETE', url, token: organisation.owner.token })
          : await ctx.request({
              method: 'PATCH',
              url,
              token: organisation.owner.token,
              payload: { role: 'member' },
            });
      expect(res.statusCode).toBeLessThan(300);
      const list = await ctx.request({
        method: 'GET',
        url: `/api/v1/webhooks/?organisationId=${organisation.id}`,
        token: organisation.owner.token,
      });
      const byId = new Map((list.json().items as Endpoint[]).map((e) => [e.id, e]));
      expect(byId.get(mine.id)).toMatchObject({ enabled: false, pausedReason: reason });
      expect(byId.get(theirs.id)).toMatchObject({ enabled: true, pausedReason: null });
      expect((await notificationsOf(organisation.owner)).map((n) => n.data.endpointId)).toEqual([mine.id]);
    });
  }
});
