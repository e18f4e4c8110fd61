import { describe, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  type ExpectedAuthClasses,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../../test/helpers/security-matrix.ts';
import { EXTENSION, itHidesFromOtherOrganisations, SPEC, securityBuilds } from '../security.test-support.ts';

const ctx = useTestContext();
const { organisationOf, orgPath } = securityBuilds(ctx);

/** A building of the team's organisation, and a studio in it when asked. */
async function place(team: TestTeam, kind: 'buildings' | 'studios') {
  const organisation = await organisationOf(team);
  const building = await ctx.request({
    method: 'POST',
    url: `/api/v1/organisations/${organisation.id}/buildings`,
    token: team.owner.token,
    payload: { name: `House ${ctx.unique()}` },
  });
  if (kind === 'buildings') return { organisation, id: building.json().id as number };
  const studio = await ctx.request({
    method: 'POST',
    url: `/api/v1/organisations/${organisation.id}/studios`,
    token: team.owner.token,
    payload: { buildingId: building.json().id, name: 'Room' },
  });
  return { organisation, id: studio.json().id as number };
}

const placePath = (kind: 'buildings' | 'studios', payload?: object) => async (team: TestTeam) => {
  const { organisation, id } = await place(team, kind);
  return { url: `/api/v1/organisations/${organisation.id}/${kind}/${id}`, ...(payload ? { payload } : {}) };
};

const cases: MatrixCase[] = [
  { method: 'GET', path: '/api/v1/organisations/{id}/buildings', build: orgPath('/buildings') },
  {
    method: 'POST',
    path: '/api/v1/organisations/{id}/buildings',
    build: orgPath('/buildings', { name: 'Annex' }),
  },
  {
    method: 'PATCH',
    path: '/api/v1/organisations/{id}/buildings/{buildingId}',
    build: placePath('buildings', { name: 'Renamed' }),
  },
  {
    method: 'DELETE',
    path: '/api/v1/organisations/{id}/buildings/{buildingId}',
    build: placePath('buildings'),
  },
  { method: 'GET', path: '/api/v1/organisations/{id}/studios', build: orgPath('/studios') },
  {
    method: 'POST',
    path: '/api/v1/organisations/{id}/studios',
    build: async (team) => {
      const { organisation, id } = await place(team, 'buildings');
      return {
        url: `/api/v1/organisations/${organisation.id}/studios`,
        payload: { buildingId: id, name: 'B' },
      };
    },
  },
  {
    method: 'PATCH',
    path: '/api/v1/organisations/{id}/studios/{studioId}',
    build: placePath('studios', { name: 'Renamed' }),
  },
  { method: 'DELETE', path: '/api/v1/organisations/{id}/studios/{studioId}', build: placePath('studios') },
];

const EXPECTED: ExpectedAuthClasses = {
  'GET /api/v1/organisations/{id}/buildings': SPEC,
  'POST /api/v1/organisations/{id}/buildings': EXTENSION,
  'PATCH /api/v1/organisations/{id}/buildings/{buildingId}': EXTENSION,
  'DELETE /api/v1/organisations/{id}/buildings/{buildingId}': EXTENSION,
  'GET /api/v1/organisations/{id}/studios': SPEC,
  'POST /api/v1/organisations/{id}/studios': EXTENSION,
  'PATCH /api/v1/organisations/{id}/studios/{studioId}': EXTENSION,
  'DELETE /api/v1/organisations/{id}/studios/{studioId}': EXTENSION,
};

describe('buildings and studios routes', () => {
  it('are session-only, changes flagged as extensions, and the matrix covers every one', async () => {
    await expectAreaAuthClasses(
      ctx,
      (r) => /^organisations\.(buildings|studios)\./.test(r.operationId),
      EXPECTED,
      cases,
    );
  });

  itHidesFromOtherOrganisations(ctx, cases);
});

describeSecurityMatrix(ctx, cases);
