import { describe, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  type ExpectedAuthClasses,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import { newEndpoint } from './fixtures/endpoints.ts';

const ctx = useTestContext();

const endpointUrl =
  (suffix: string, payload?: object) =>
  async (team: TestTeam): Promise<{ url: string; payload?: unknown }> => {
    const endpoint = await newEndpoint(ctx, team);
    return { url: `/api/v1/webhooks/${endpoint.id}${suffix}`, ...(payload ? { payload } : {}) };
  };

const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: '/api/v1/webhooks/event-types',
    teamScoped: false,
    build: () => ({ url: '/api/v1/webhooks/event-types' }),
  },
  {
    method: 'GET',
    path: '/api/v1/webhooks',
    build: (team) => ({ url: `/api/v1/webhooks/?teamId=${team.id}` }),
  },
  {
    method: 'POST',
    path: '/api/v1/webhooks',
    build: (team) => ({
      url: '/api/v1/webhooks/',
      payload: { url: 'https://hooks.example.com/matrix', teamId: team.id },
    }),
  },
  { method: 'PATCH', path: '/api/v1/webhooks/{id}', build: endpointUrl('', { description: 'Renamed' }) },
  { method: 'DELETE', path: '/api/v1/webhooks/{id}', build: endpointUrl('') },
  { method: 'GET', path: '/api/v1/webhooks/{id}/deliveries', build: endpointUrl('/deliveries') },
  { method: 'POST', path: '/api/v1/webhooks/{id}/test', build: endpointUrl('/test') },
];

/** Every route of the area: class B as the specification marks it (writes need `webhooks:write`); test is an extension. */
const EXPECTED: ExpectedAuthClasses = {
  'GET /api/v1/webhooks/event-types': { auth: 'keyOrSession', extension: false },
  'GET /api/v1/webhooks': { auth: 'keyOrSession', extension: false },
  'POST /api/v1/webhooks': { auth: 'keyOrSession:webhooks:write', extension: false },
  'PATCH /api/v1/webhooks/{id}': { auth: 'keyOrSession:webhooks:write', extension: false },
  'DELETE /api/v1/webhooks/{id}': { auth: 'keyOrSession:webhooks:write', extension: false },
  'GET /api/v1/webhooks/{id}/deliveries': { auth: 'keyOrSession', extension: false },
  'POST /api/v1/webhooks/{id}/test': { auth: 'keyOrSession:webhooks:write', extension: true },
};

describe('webhooks area routes', () => {
  it('declare the auth classes of the specification, and the matrix covers every one of them', async () => {
    await expectAreaAuthClasses(ctx, (r) => r.path.startsWith('/api/v1/webhooks'), EXPECTED, cases);
  });
});

describeSecurityMatrix(ctx, cases);
