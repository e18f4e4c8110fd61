import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema/index.ts';
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

/** Marks the user's e-mail address verified, as a provider's verified token or an operator would have. */
export async function markEmailVerified(ctx: Pick<TestContext, 'database'>, user: { id: string }) {
  await ctx.database.db
    .update(users)
    .set({ emailVerifiedAt: new Date('2026-01-01T00:00:00Z') })
    .where(eq(users.id, user.id));
}
