import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  type ExpectedAuthClasses,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
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
const EXPECTED: ExpectedAuthClasses = {
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
    await expectAreaAuthClasses(ctx, (r) => r.operationId.startsWith('financials.'), EXPECTED, cases);
  });

  it('documents the export as CSV or JSON', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const answer = doc.paths['/api/v1/financials/export'].get.responses['200'];
    expect(Object.keys(answer.content).sort()).toEqual(['application/json', 'text/csv']);
  });
});

describeSecurityMatrix(ctx, cases);
