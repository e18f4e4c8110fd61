import { describe, it } from 'vitest';
import { useTestContext } from '../../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  type ExpectedAuthClasses,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../../test/helpers/security-matrix.ts';
import { itHidesFromOtherOrganisations, SPEC, securityBuilds } from '../security.test-support.ts';

const ctx = useTestContext();
const { orgPath } = securityBuilds(ctx);

const cases: MatrixCase[] = [
  { method: 'GET', path: '/api/v1/organisations/{id}/follow-ups', build: orgPath('/follow-ups') },
  { method: 'GET', path: '/api/v1/organisations/{id}/next-actions', build: orgPath('/next-actions') },
  { method: 'GET', path: '/api/v1/organisations/{id}/prospects', build: orgPath('/prospects') },
  { method: 'GET', path: '/api/v1/organisations/{id}/sessions', build: orgPath('/sessions') },
];

const EXPECTED: ExpectedAuthClasses = {
  'GET /api/v1/organisations/{id}/follow-ups': SPEC,
  'GET /api/v1/organisations/{id}/next-actions': SPEC,
  'GET /api/v1/organisations/{id}/prospects': SPEC,
  'GET /api/v1/organisations/{id}/sessions': SPEC,
};

describe('roll-ups and the sessions of an organisation', () => {
  it('are session-only routes of the specification, and the matrix covers every one', async () => {
    await expectAreaAuthClasses(
      ctx,
      (r) => /^organisations\.(followUps|nextActions|prospects|sessions)/.test(r.operationId),
      EXPECTED,
      cases,
    );
  });

  itHidesFromOtherOrganisations(ctx, cases);
});

describeSecurityMatrix(ctx, cases);
