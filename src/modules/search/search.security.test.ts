import { expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { describeSecurityMatrix, expectAreaAuthClasses } from '../../../test/helpers/security-matrix.ts';

const ctx = useTestContext();

const CASES = [
  {
    method: 'GET' as const,
    path: '/api/v1/search',
    build: (team: { id: number }) => ({ url: `/api/v1/search?q=anything&teamId=${team.id}` }),
  },
];

it('declares the auth class of every search route', async () => {
  await expectAreaAuthClasses(
    ctx,
    (route) => route.path === '/api/v1/search',
    { 'GET /api/v1/search': { auth: 'keyOrSession', extension: true } },
    CASES,
  );
  expect(CASES).toHaveLength(1);
});

describeSecurityMatrix(ctx, CASES);
