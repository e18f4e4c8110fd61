import { describe, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  type ExpectedAuthClasses,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import { EXTENSION, itHidesFromOtherOrganisations, SPEC, securityBuilds } from './security.test-support.ts';

const ctx = useTestContext();
const { organisationOf, orgPath, newOrganisation } = securityBuilds(ctx);

/** A fresh invitation (to a new address) of the team's organisation, made by its owner. */
const invitationOf = async (team: TestTeam) => {
  const res = await ctx.request({
    method: 'POST',
    url: `/api/v1/organisations/${(await organisationOf(team)).id}/invitations`,
    token: team.owner.token,
    payload: { email: `invited-${ctx.unique()}@example.test` },
  });
  return res.json() as { id: number; token: string };
};

const ownerAsMember = (method: 'PATCH' | 'DELETE') => async (team: TestTeam) => ({
  url: `/api/v1/organisations/${(await organisationOf(team)).id}/members/${team.owner.id}`,
  ...(method === 'PATCH' ? { payload: { role: 'admin' } } : {}),
});

const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: '/api/v1/organisations',
    build: () => ({ url: '/api/v1/organisations/' }),
    teamScoped: false,
  },
  {
    method: 'POST',
    path: '/api/v1/organisations',
    build: () => ({ url: '/api/v1/organisations/', payload: { name: 'Label' } }),
    teamScoped: false,
  },
  { method: 'GET', path: '/api/v1/organisations/{id}', build: orgPath() },
  { method: 'PATCH', path: '/api/v1/organisations/{id}', build: orgPath('', { name: 'Renamed' }) },
  { method: 'DELETE', path: '/api/v1/organisations/{id}', build: orgPath() },
  { method: 'GET', path: '/api/v1/organisations/{id}/teams', build: orgPath('/teams') },
  {
    method: 'POST',
    path: '/api/v1/organisations/{id}/teams',
    build: async (team) => {
      const organisation = await newOrganisation(team.owner);
      return { url: `/api/v1/organisations/${organisation.id}/teams`, payload: { teamId: team.id } };
    },
  },
  {
    method: 'DELETE',
    path: '/api/v1/organisations/{id}/teams/{teamId}',
    build: async (team) => ({
      url: `/api/v1/organisations/${(await organisationOf(team)).id}/teams/${team.id}`,
    }),
  },
  { method: 'GET', path: '/api/v1/organisations/{id}/members', build: orgPath('/members') },
  {
    method: 'POST',
    path: '/api/v1/organisations/{id}/members',
    build: orgPath('/members', { email: 'nobody-yet@example.test' }),
  },
  { method: 'GET', path: '/api/v1/organisations/{id}/invitations', build: orgPath('/invitations') },
  {
    method: 'POST',
    path: '/api/v1/organisations/{id}/invitations',
    build: orgPath('/invitations', { email: 'nobody-yet@example.test' }),
  },
  {
    method: 'DELETE',
    path: '/api/v1/organisations/{id}/invitations/{invitationId}',
    build: async (team) => ({
      url: `/api/v1/organisations/${(await organisationOf(team)).id}/invitations/${(await invitationOf(team)).id}`,
    }),
  },
  {
    method: 'POST',
    path: '/api/v1/organisation-invitations/{token}/accept',
    build: async (team) => ({
      url: `/api/v1/organisation-invitations/${(await invitationOf(team)).token}/accept`,
    }),
    // Anyone signed in may try a token; whoever it was not sent to gets 403, tested with the invitations.
    teamScoped: false,
  },
  {
    method: 'POST',
    path: '/api/v1/organisation-invitations/{token}/decline',
    build: async (team) => ({
      url: `/api/v1/organisation-invitations/${(await invitationOf(team)).token}/decline`,
    }),
    teamScoped: false,
  },
  {
    method: 'POST',
    path: '/api/v1/organisations/{id}/invitations/{invitationId}/resend',
    build: async (team) => ({
      url: `/api/v1/organisations/${(await organisationOf(team)).id}/invitations/${(await invitationOf(team)).id}/resend`,
    }),
  },
  ...(['accept', 'decline'] as const).map(
    (answer): MatrixCase => ({
      method: 'POST',
      path: `/api/v1/user/organisation-invitations/{invitationId}/${answer}`,
      build: async (team) => ({
        url: `/api/v1/user/organisation-invitations/${(await invitationOf(team)).id}/${answer}`,
      }),
      // Anyone signed in may try an id; it answers only for the invited person (404 otherwise, tested there).
      teamScoped: false,
    }),
  ),
  { method: 'PATCH', path: '/api/v1/organisations/{id}/members/{userId}', build: ownerAsMember('PATCH') },
  { method: 'DELETE', path: '/api/v1/organisations/{id}/members/{userId}', build: ownerAsMember('DELETE') },
];

/** Every route is S; the management routes are extensions. */
const EXPECTED: ExpectedAuthClasses = {
  'GET /api/v1/organisations': SPEC,
  'POST /api/v1/organisations': EXTENSION,
  'GET /api/v1/organisations/{id}': SPEC,
  'PATCH /api/v1/organisations/{id}': EXTENSION,
  'DELETE /api/v1/organisations/{id}': EXTENSION,
  'GET /api/v1/organisations/{id}/teams': SPEC,
  'POST /api/v1/organisations/{id}/teams': EXTENSION,
  'DELETE /api/v1/organisations/{id}/teams/{teamId}': EXTENSION,
  'GET /api/v1/organisations/{id}/members': SPEC,
  'POST /api/v1/organisations/{id}/members': EXTENSION,
  'GET /api/v1/organisations/{id}/invitations': EXTENSION,
  'POST /api/v1/organisations/{id}/invitations': EXTENSION,
  'DELETE /api/v1/organisations/{id}/invitations/{invitationId}': EXTENSION,
  'POST /api/v1/organisations/{id}/invitations/{invitationId}/resend': EXTENSION,
  'POST /api/v1/user/organisation-invitations/{invitationId}/accept': EXTENSION,
  'POST /api/v1/user/organisation-invitations/{invitationId}/decline': EXTENSION,
  'POST /api/v1/organisation-invitations/{token}/accept': EXTENSION,
  'POST /api/v1/organisation-invitations/{token}/decline': EXTENSION,
  'PATCH /api/v1/organisations/{id}/members/{userId}': EXTENSION,
  'DELETE /api/v1/organisations/{id}/members/{userId}': EXTENSION,
};

/** The routes of this file; places, camps, roll-ups and sessions have files of their own. */
const OWN =
  /^(organisations\.(list|create|get|update|delete|teams\.|members\.|invitations\.)|organisationInvitations\.)/;

describe('organisations, their teams, members and invitations', () => {
  it('are session-only routes, management extensions flagged, and the matrix covers every one', async () => {
    await expectAreaAuthClasses(ctx, (r) => OWN.test(r.operationId), EXPECTED, cases);
  });

  itHidesFromOtherOrganisations(ctx, cases);
});

describeSecurityMatrix(ctx, cases);
