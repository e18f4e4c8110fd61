import { describe, expect, it } from 'vitest';
import type { TestTeam } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  type ExpectedAuthClasses,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';
import { uploadTourCover } from './tours.test-support.ts';

const ctx = useStorageTestContext('local');

async function newTour(team: TestTeam): Promise<number> {
  const res = await ctx.request({
    method: 'POST',
    url: '/api/v1/tours/',
    token: team.owner.token,
    payload: { teamId: team.id, name: 'Matrix tour' },
  });
  if (res.statusCode !== 201) throw new Error(`tour failed: ${res.statusCode} ${res.body}`);
  return res.json().id;
}

const onTour =
  (suffix = '', payload?: object) =>
  async (team: TestTeam) => ({ url: `/api/v1/tours/${await newTour(team)}${suffix}`, payload });

const onCover =
  (suffix = '', payload?: object) =>
  async (team: TestTeam) => {
    const tourId = await newTour(team);
    const cover = await uploadTourCover(ctx, team, tourId);
    return { url: `/api/v1/tours/${tourId}/covers/${cover.id}${suffix}`, payload };
  };

const onPendingCover = (suffix: string) => async (team: TestTeam) => {
  const tourId = await newTour(team);
  const res = await ctx.request({
    method: 'POST',
    url: `/api/v1/tours/${tourId}/covers`,
    token: team.owner.token,
    payload: { fileName: 'p.png' },
  });
  return { url: `/api/v1/tours/${tourId}/covers/${res.json().id}${suffix}` };
};

const cases: MatrixCase[] = [
  { method: 'GET', path: '/api/v1/tours', build: (team) => ({ url: `/api/v1/tours/?teamId=${team.id}` }) },
  {
    method: 'POST',
    path: '/api/v1/tours',
    build: (team) => ({ url: '/api/v1/tours/', payload: { teamId: team.id, name: 'New' } }),
  },
  { method: 'GET', path: '/api/v1/tours/{id}', build: onTour() },
  { method: 'PUT', path: '/api/v1/tours/{id}', build: onTour('', { name: 'Renamed' }) },
  { method: 'DELETE', path: '/api/v1/tours/{id}', build: onTour() },
  { method: 'GET', path: '/api/v1/tours/{id}/covers', build: onTour('/covers') },
  { method: 'POST', path: '/api/v1/tours/{id}/covers', build: onTour('/covers', { fileName: 'c.png' }) },
  { method: 'POST', path: '/api/v1/tours/{id}/covers/{coverId}/added', build: onPendingCover('/added') },
  { method: 'PUT', path: '/api/v1/tours/{id}/covers/{coverId}/current', build: onCover('/current') },
  {
    method: 'PUT',
    path: '/api/v1/tours/{id}/covers/{coverId}/public',
    build: onCover('/public', { isPublic: true }),
  },
  { method: 'DELETE', path: '/api/v1/tours/{id}/covers/{coverId}', build: onCover() },
];

/** The auth class of every route of the area: S as the specification marks it, extensions flagged. */
const EXPECTED: ExpectedAuthClasses = {
  'GET /api/v1/tours': { auth: 'session', extension: false },
  'POST /api/v1/tours': { auth: 'session', extension: false },
  'GET /api/v1/tours/{id}': { auth: 'session', extension: false },
  'PUT /api/v1/tours/{id}': { auth: 'session', extension: false },
  'DELETE /api/v1/tours/{id}': { auth: 'session', extension: false },
  'GET /api/v1/tours/{id}/covers': { auth: 'session', extension: false },
  'POST /api/v1/tours/{id}/covers': { auth: 'session', extension: false },
  'POST /api/v1/tours/{id}/covers/{coverId}/added': { auth: 'session', extension: true },
  'PUT /api/v1/tours/{id}/covers/{coverId}/current': { auth: 'session', extension: false },
  'PUT /api/v1/tours/{id}/covers/{coverId}/public': { auth: 'session', extension: false },
  'DELETE /api/v1/tours/{id}/covers/{coverId}': { auth: 'session', extension: false },
};

describe('tours area routes', () => {
  it('declare the auth classes of the specification, and the matrix covers every one of them', async () => {
    await expectAreaAuthClasses(ctx, (r) => r.path.startsWith('/api/v1/tours'), EXPECTED, cases);
  });

  it('serve public covers anonymously, as an extension, outside the session-only area', () => {
    const route = ctx.app.routeTable.find((r) => r.operationId === 'tours.covers.public');
    expect(route).toMatchObject({ method: 'GET', path: '/api/v1/public/tour-covers/{token}' });
    expect(route?.auth.kind).toBe('anonymous');
  });
});

describeSecurityMatrix(ctx, cases);
