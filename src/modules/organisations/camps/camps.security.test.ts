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
const { organisationOf, campOf, orgPath } = securityBuilds(ctx);

/** `/api/v1/organisations/{id}/camps/{campId}<suffix>` of the team's camp. */
const campPath =
  (suffix = '', payload?: object) =>
  async (team: TestTeam) => {
    const [organisation, camp] = [await organisationOf(team), await campOf(team)];
    return {
      url: `/api/v1/organisations/${organisation.id}/camps/${camp.id}${suffix}`,
      ...(payload ? { payload } : {}),
    };
  };

const CAMP = { name: 'Camp', startsOn: '2030-01-01', endsOn: '2030-01-02' };

const cases: MatrixCase[] = [
  { method: 'GET', path: '/api/v1/organisations/{id}/camps', build: orgPath('/camps') },
  { method: 'POST', path: '/api/v1/organisations/{id}/camps', build: orgPath('/camps', CAMP) },
  { method: 'GET', path: '/api/v1/organisations/{id}/camps/{campId}', build: campPath() },
  {
    method: 'PATCH',
    path: '/api/v1/organisations/{id}/camps/{campId}',
    build: campPath('', { location: 'Oslo' }),
  },
  { method: 'DELETE', path: '/api/v1/organisations/{id}/camps/{campId}', build: campPath() },
  {
    method: 'POST',
    path: '/api/v1/organisations/{id}/camps/{campId}/rsvp',
    build: campPath('/rsvp', { status: 'accepted' }),
  },
  { method: 'GET', path: '/api/v1/camps', build: () => ({ url: '/api/v1/camps/' }), teamScoped: false },
];

const EXPECTED: ExpectedAuthClasses = {
  'GET /api/v1/organisations/{id}/camps': SPEC,
  'POST /api/v1/organisations/{id}/camps': EXTENSION,
  'GET /api/v1/organisations/{id}/camps/{campId}': SPEC,
  'PATCH /api/v1/organisations/{id}/camps/{campId}': EXTENSION,
  'DELETE /api/v1/organisations/{id}/camps/{campId}': EXTENSION,
  'POST /api/v1/organisations/{id}/camps/{campId}/rsvp': SPEC,
  'GET /api/v1/camps': SPEC,
};

describe('camps routes', () => {
  it('are session-only, extensions flagged, and the matrix covers every one', async () => {
    await expectAreaAuthClasses(
      ctx,
      (r) => r.operationId === 'camps.list' || r.operationId.startsWith('organisations.camps.'),
      EXPECTED,
      cases,
    );
  });

  itHidesFromOtherOrganisations(ctx, cases);
});

describeSecurityMatrix(ctx, cases);
