import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../test/helpers/security-matrix.ts';
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
const EXPECTED: Record<string, { auth: string; extension: boolean }> = {
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
    const routes = ctx.app.routeTable.filter((r) => r.path.startsWith('/api/v1/webhooks'));
    const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const covered = new Set(cases.map((c) => `${c.method} ${c.path}`));
    expect(routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      const auth =
        route.auth.kind === 'keyOrSession' && route.auth.scope
          ? `keyOrSession:${route.auth.scope}`
          : route.auth.kind;
      expect(auth, name).toBe(EXPECTED[name]!.auth);
      const operation = doc.paths[route.path][route.method.toLowerCase()];
      expect(operation['x-extension'] === true, name).toBe(EXPECTED[name]!.extension);
      expect(covered, name).toContain(name);
    }
    expect(cases).toHaveLength(routes.length);
  });
});

describeSecurityMatrix(ctx, cases);
