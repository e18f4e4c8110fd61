import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../test/helpers/security-matrix.ts';

const ctx = useTestContext();

async function newInvite(team: TestTeam, email = `m-${ctx.unique()}@example.test`) {
  const res = await ctx.request({
    method: 'POST',
    url: `/api/v1/teams/${team.id}/invites`,
    token: team.owner.token,
    payload: { email },
  });
  if (res.statusCode !== 201) throw new Error(`invite failed: ${res.statusCode} ${res.body}`);
  return res.json() as { id: number; token: string };
}

const teamUrl = (suffix: string) => (team: TestTeam) => ({ url: `/api/v1/teams/${team.id}${suffix}` });

const cases: MatrixCase[] = [
  { method: 'GET', path: '/api/v1/teams', build: () => ({ url: '/api/v1/teams/' }), teamScoped: false },
  {
    method: 'POST',
    path: '/api/v1/teams',
    build: () => ({ url: '/api/v1/teams/', payload: { name: 'Matrix' } }),
    teamScoped: false,
  },
  {
    method: 'GET',
    path: '/api/v1/teams/lookup',
    build: () => ({ url: '/api/v1/teams/lookup?q=a' }),
    teamScoped: false,
  },
  {
    method: 'GET',
    path: '/api/v1/teams/socials',
    build: (team) => ({ url: `/api/v1/teams/socials?teamId=${team.id}` }),
  },
  {
    method: 'GET',
    path: '/api/v1/teams/directory',
    build: (team) => ({ url: `/api/v1/teams/directory?teamId=${team.id}` }),
  },
  { method: 'GET', path: '/api/v1/teams/{id}', build: teamUrl('') },
  {
    method: 'PATCH',
    path: '/api/v1/teams/{id}',
    build: (team) => ({ ...teamUrl('')(team), payload: { name: 'Renamed' } }),
  },
  { method: 'DELETE', path: '/api/v1/teams/{id}', build: teamUrl('') },
  { method: 'GET', path: '/api/v1/teams/{id}/overview', build: teamUrl('/overview') },
  { method: 'GET', path: '/api/v1/teams/{id}/invitable-members', build: teamUrl('/invitable-members') },
  { method: 'GET', path: '/api/v1/teams/{id}/members', build: teamUrl('/members') },
  {
    method: 'PATCH',
    path: '/api/v1/teams/{id}/members/{userId}',
    build: async (team) => {
      const member = await ctx.addMember(team);
      return { url: `/api/v1/teams/${team.id}/members/${member.id}`, payload: { role: 'admin' } };
    },
  },
  {
    method: 'DELETE',
    path: '/api/v1/teams/{id}/members/{userId}',
    build: async (team) => {
      const member = await ctx.addMember(team);
      return { url: `/api/v1/teams/${team.id}/members/${member.id}` };
    },
  },
  { method: 'GET', path: '/api/v1/teams/{id}/plan', build: teamUrl('/plan') },
  { method: 'GET', path: '/api/v1/teams/{id}/invites', build: teamUrl('/invites') },
  {
    method: 'POST',
    path: '/api/v1/teams/{id}/invites',
    build: (team) => ({
      url: `/api/v1/teams/${team.id}/invites`,
      payload: { email: `p-${ctx.unique()}@example.test` },
    }),
  },
  {
    method: 'DELETE',
    path: '/api/v1/teams/{id}/invites/{inviteId}',
    build: async (team) => ({ url: `/api/v1/teams/${team.id}/invites/${(await newInvite(team)).id}` }),
  },
  {
    method: 'POST',
    path: '/api/v1/teams/{id}/invites/{inviteId}/resend',
    build: async (team) => ({
      url: `/api/v1/teams/${team.id}/invites/${(await newInvite(team)).id}/resend`,
    }),
  },
  ...(['accept', 'decline'] as const).map(
    (answer): MatrixCase => ({
      method: 'POST',
      path: `/api/v1/user/invites/{inviteId}/${answer}`,
      build: async (team) => ({ url: `/api/v1/user/invites/${(await newInvite(team)).id}/${answer}` }),
      // Anyone signed in may try an id; it answers only for the invited verified address (404 otherwise).
      teamScoped: false,
    }),
  ),
  {
    method: 'POST',
    path: '/api/v1/invites/{token}/accept',
    build: async (team) => ({ url: `/api/v1/invites/${(await newInvite(team)).token}/accept` }),
    // Anyone signed in may try a token; a stranger gets 403 (another e-mail), tested with the invites.
    teamScoped: false,
  },
  {
    method: 'POST',
    path: '/api/v1/invites/{token}/decline',
    build: async (team) => ({ url: `/api/v1/invites/${(await newInvite(team)).token}/decline` }),
    // As accept: a stranger gets 403 (another e-mail), tested with the inbox.
    teamScoped: false,
  },
  { method: 'GET', path: '/api/v1/teams/{id}/status-config', build: teamUrl('/status-config') },
  {
    method: 'PATCH',
    path: '/api/v1/teams/{id}/status-config',
    build: (team) => ({
      url: `/api/v1/teams/${team.id}/status-config`,
      payload: { patch: { albums: [{ id: 'idea', name: 'Idea' }] } },
    }),
  },
  {
    method: 'PATCH',
    path: '/api/v1/teams/{id}/switcher-visibility',
    build: (team) => ({ url: `/api/v1/teams/${team.id}/switcher-visibility`, payload: { hidden: true } }),
  },
  {
    method: 'PATCH',
    path: '/api/v1/teams/{id}/socials',
    build: (team) => ({
      url: `/api/v1/teams/${team.id}/socials`,
      payload: { socials: { web: 'https://band.example' } },
    }),
  },
];

/** The operations this area declares (media and banner routes belong to the file storage area). */
const OPERATIONS = [
  'teams.list',
  'teams.create',
  'teams.lookup',
  'teams.socials.get',
  'teams.socials.update',
  'teams.directory',
  'teams.get',
  'teams.update',
  'teams.delete',
  'teams.overview',
  'teams.plan',
  'teams.switcherVisibility.update',
  'teams.invitableMembers.list',
  'teams.members.list',
  'teams.members.update',
  'teams.members.remove',
  'teams.invites.list',
  'teams.invites.create',
  'teams.invites.delete',
  'teams.invites.resend',
  'invites.accept',
  'invites.decline',
  'invites.acceptById',
  'invites.declineById',
  'teams.statusConfig.get',
  'teams.statusConfig.update',
];

describe('teams area routes', () => {
  it('are all session-only, and the matrix covers every one of them', () => {
    const covered = new Set(cases.map((c) => `${c.method} ${c.path}`));
    for (const operationId of OPERATIONS) {
      const route = ctx.app.routeTable.find((r) => r.operationId === operationId);
      expect(route, operationId).toBeDefined();
      expect(route!.auth.kind, operationId).toBe('session');
      expect(covered, operationId).toContain(`${route!.method} ${route!.path}`);
    }
    expect(cases).toHaveLength(OPERATIONS.length);
  });
});

describeSecurityMatrix(ctx, cases);
