import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../test/helpers/security-matrix.ts';
import { financialHelpers } from './financials.test-support.ts';

const ctx = useTestContext();
const { newEntry } = financialHelpers(ctx);

const entryUrl =
  (payload?: object) =>
  async (team: TestTeam): Promise<{ url: string; payload?: unknown }> => {
    const entry = await newEntry(team);
    return { url: `/api/v1/financials/${entry.id}`, ...(payload ? { payload } : {}) };
  };

const teamQuery = (path: string) => (team: TestTeam) => ({ url: `${path}?teamId=${team.id}` });

const cases: MatrixCase[] = [
  { method: 'GET', path: '/api/v1/financials', build: teamQuery('/api/v1/financials/') },
  {
    method: 'POST',
    path: '/api/v1/financials',
    build: (team) => ({
      url: '/api/v1/financials/',
      payload: { teamId: team.id, isIncome: true, amount: 1.5 },
    }),
  },
  { method: 'GET', path: '/api/v1/financials/summary', build: teamQuery('/api/v1/financials/summary') },
  { method: 'GET', path: '/api/v1/financials/pipeline', build: teamQuery('/api/v1/financials/pipeline') },
  { method: 'GET', path: '/api/v1/financials/export', build: teamQuery('/api/v1/financials/export') },
  {
    method: 'POST',
    path: '/api/v1/financials/import',
    build: (team) => ({
      url: '/api/v1/financials/import',
      payload: { teamId: team.id, entries: [{ isIncome: false, amount: 2 }] },
    }),
  },
  { method: 'GET', path: '/api/v1/financials/{id}', build: entryUrl() },
  { method: 'PATCH', path: '/api/v1/financials/{id}', build: entryUrl({ amount: 3.33 }) },
  { method: 'DELETE', path: '/api/v1/financials/{id}', build: entryUrl() },
];

/** The auth class of every route of the area: B as the specification marks it, extensions flagged. */
const EXPECTED: Record<string, { auth: string; extension: boolean }> = {
  'GET /api/v1/financials': { auth: 'keyOrSession', extension: false },
  'POST /api/v1/financials': { auth: 'keyOrSession:financials:write', extension: false },
  'GET /api/v1/financials/summary': { auth: 'keyOrSession', extension: false },
  'GET /api/v1/financials/pipeline': { auth: 'keyOrSession', extension: false },
  'GET /api/v1/financials/export': { auth: 'keyOrSession', extension: false },
  'POST /api/v1/financials/import': { auth: 'keyOrSession:financials:write', extension: false },
  'GET /api/v1/financials/{id}': { auth: 'keyOrSession', extension: true },
  'PATCH /api/v1/financials/{id}': { auth: 'keyOrSession:financials:write', extension: true },
  'DELETE /api/v1/financials/{id}': { auth: 'keyOrSession:financials:write', extension: true },
};

describe('financials area routes', () => {
  it('declare the auth classes of the specification, and the matrix covers every one of them', async () => {
    const routes = ctx.app.routeTable.filter((r) => r.operationId.startsWith('financials.'));
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

  it('documents the export as CSV or JSON', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const answer = doc.paths['/api/v1/financials/export'].get.responses['200'];
    expect(Object.keys(answer.content).sort()).toEqual(['application/json', 'text/csv']);
  });
});

describeSecurityMatrix(ctx, cases);
