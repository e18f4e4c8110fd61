import { useTestContext } from '../../../test/helpers/context.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../test/helpers/security-matrix.ts';

const ctx = useTestContext();

// User-scoped routes: no team in the path, so the outsider and foreign-key probes do not apply.
const userRoute = (
  method: MatrixCase['method'],
  path: string,
  payload?: (team: { id: number }) => unknown,
): MatrixCase => ({
  method,
  path,
  teamScoped: false,
  build: (team) => ({ url: path, ...(payload ? { payload: payload(team) } : {}) }),
});

describeSecurityMatrix(ctx, [
  userRoute('GET', '/api/v1/user/profile'),
  userRoute('PATCH', '/api/v1/user/profile', () => ({ name: 'Matrix' })),
  userRoute('GET', '/api/v1/user/identities'),
  userRoute('GET', '/api/v1/user/preferences'),
  userRoute('PATCH', '/api/v1/user/preferences', () => ({ theme: 'dark' })),
  userRoute('PATCH', '/api/v1/user/default-team', (team) => ({ teamId: team.id })),
  userRoute('PATCH', '/api/v1/user/zero-data-retention', () => ({ enabled: true })),
  userRoute('POST', '/api/v1/user/push-tokens', () => ({ token: `t-${ctx.unique()}`, platform: 'ios' })),
  userRoute('DELETE', '/api/v1/user/push-tokens', () => ({ token: 'some-token' })),
  userRoute('POST', '/api/v1/user/app-opened'),
  userRoute('GET', '/api/v1/user/account/deletion-status'),
  userRoute('DELETE', '/api/v1/user/account', () => ({ confirmation: 'DELETE MY ACCOUNT' })),
]);
