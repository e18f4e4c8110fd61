import { describe, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  type ExpectedAuthClasses,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import { contactHelpers } from './contacts.test-support.ts';

const ctx = useTestContext();
const { newContact } = contactHelpers(ctx);

const contactUrl =
  (suffix = '', payload?: object) =>
  async (team: TestTeam): Promise<{ url: string; payload?: unknown }> => {
    const contact = await newContact(team, { email: `${ctx.unique()}@example.test` });
    return { url: `/api/v1/contacts/${contact.id}${suffix}`, ...(payload ? { payload } : {}) };
  };

const teamQuery =
  (path: string, query = '') =>
  (team: TestTeam) => ({ url: `${path}?teamId=${team.id}${query}` });

const cases: MatrixCase[] = [
  { method: 'GET', path: '/api/v1/contacts', build: teamQuery('/api/v1/contacts/') },
  {
    method: 'POST',
    path: '/api/v1/contacts',
    build: (team) => ({ url: '/api/v1/contacts/', payload: { team_id: team.id, name: 'Probe' } }),
  },
  {
    method: 'GET',
    path: '/api/v1/contacts/resolve',
    build: async (team) => {
      const contact = await newContact(team, { email: `${ctx.unique()}@example.test` });
      return { url: `/api/v1/contacts/resolve?teamId=${team.id}&email=${encodeURIComponent(contact.email)}` };
    },
  },
  {
    method: 'GET',
    path: '/api/v1/contacts/lead-status',
    build: async (team) => {
      const contact = await newContact(team);
      return { url: `/api/v1/contacts/lead-status?teamId=${team.id}&contactId=${contact.id}` };
    },
  },
  { method: 'GET', path: '/api/v1/contacts/groups', build: teamQuery('/api/v1/contacts/groups') },
  {
    method: 'POST',
    path: '/api/v1/contacts/groups',
    build: (team) => ({ url: '/api/v1/contacts/groups', payload: { teamId: team.id, name: ctx.unique() } }),
  },
  { method: 'GET', path: '/api/v1/contacts/{id}', build: contactUrl() },
  { method: 'PATCH', path: '/api/v1/contacts/{id}', build: contactUrl('', { company: 'Probe Co' }) },
  { method: 'DELETE', path: '/api/v1/contacts/{id}', build: contactUrl() },
  { method: 'GET', path: '/api/v1/contacts/{id}/timeline', build: contactUrl('/timeline') },
  {
    method: 'POST',
    path: '/api/v1/contacts/platform-users',
    build: (team) => ({
      url: '/api/v1/contacts/platform-users',
      payload: { team_id: team.id, emails: [team.owner.email] },
    }),
  },
  {
    method: 'GET',
    path: '/api/v1/contacts/together',
    // The person is the team's owner: an outsider may not know them (404).
    build: (team) => ({ url: `/api/v1/contacts/together?userId=${team.owner.id}` }),
  },
];

/** The auth class of every route of the area: B as the specification marks it, together S. */
const EXPECTED: ExpectedAuthClasses = {
  'GET /api/v1/contacts': { auth: 'keyOrSession', extension: false },
  'POST /api/v1/contacts': { auth: 'keyOrSession:contacts:write', extension: false },
  'GET /api/v1/contacts/resolve': { auth: 'keyOrSession', extension: false },
  'GET /api/v1/contacts/lead-status': { auth: 'keyOrSession', extension: false },
  'GET /api/v1/contacts/groups': { auth: 'keyOrSession', extension: false },
  'POST /api/v1/contacts/groups': { auth: 'keyOrSession:contacts:write', extension: false },
  'GET /api/v1/contacts/{id}': { auth: 'keyOrSession', extension: false },
  'PATCH /api/v1/contacts/{id}': { auth: 'keyOrSession:contacts:write', extension: false },
  'DELETE /api/v1/contacts/{id}': { auth: 'keyOrSession:contacts:write', extension: false },
  'GET /api/v1/contacts/{id}/timeline': { auth: 'keyOrSession', extension: false },
  'POST /api/v1/contacts/platform-users': { auth: 'keyOrSession', extension: false },
  'GET /api/v1/contacts/together': { auth: 'session', extension: false },
};

describe('contacts area routes', () => {
  it('declare the auth classes of the specification, and the matrix covers every one of them', async () => {
    await expectAreaAuthClasses(ctx, (r) => r.operationId.startsWith('contacts.'), EXPECTED, cases);
  });
});

describeSecurityMatrix(ctx, cases);
