import { ACCOUNT_DELETION_PHRASE } from '../../src/modules/users/users.schemas.ts';
import type { TestContext } from './context.ts';

/** `DELETE /api/v1/user/account` as `token`, with the confirmation phrase unless `payload` is given. */
export function requestAccountDeletion(
  ctx: Pick<TestContext, 'request'>,
  token: string,
  payload: object = { confirmation: ACCOUNT_DELETION_PHRASE },
) {
  return ctx.request({ method: 'DELETE', url: '/api/v1/user/account', token, payload });
}
