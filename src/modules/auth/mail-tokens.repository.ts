import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db, DbTransaction } from '../../db/client.ts';
import { type MailTokenPurpose, mailTokens } from '../../db/schema/index.ts';

type Executor = Db | DbTransaction;

/** Stores a new token of `purpose` for the user; the user's earlier tokens of that purpose stop working. */
export async function replaceMailToken(
  tx: Executor,
  values: { tokenHash: string; userId: string; purpose: MailTokenPurpose; email: string; expiresAt: Date },
): Promise<void> {
  await tx
    .delete(mailTokens)
    .where(
      and(
        eq(mailTokens.userId, values.userId),
        eq(mailTokens.purpose, values.purpose),
        isNull(mailTokens.usedAt),
      ),
    );
  await tx.insert(mailTokens).values(values);
}

/**
 * Spends a live token (unused, unexpired) and answers what it was for; undefined when there is none.
 * Concurrent presentations of one token: only one of them gets it.
 */
export async function spendMailToken(tx: Executor, tokenHash: string, now: Date) {
  const [row] = await tx
    .update(mailTokens)
    .set({ usedAt: now })
    .where(and(eq(mailTokens.tokenHash, tokenHash), isNull(mailTokens.usedAt), gt(mailTokens.expiresAt, now)))
    .returning({ userId: mailTokens.userId, purpose: mailTokens.purpose, email: mailTokens.email });
  return row;
}

/** The live token's purpose and account without spending it; undefined when there is none. */
export async function peekMailToken(db: Executor, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ userId: mailTokens.userId, purpose: mailTokens.purpose, email: mailTokens.email })
    .from(mailTokens)
    .where(and(eq(mailTokens.tokenHash, tokenHash), isNull(mailTokens.usedAt), gt(mailTokens.expiresAt, now)))
    .limit(1);
  return row;
}

/** Voids the user's unused tokens of these purposes (an address or password that changed). */
export async function dropMailTokens(
  tx: Executor,
  userId: string,
  purposes: MailTokenPurpose[],
): Promise<void> {
  for (const purpose of purposes)
    await tx
      .delete(mailTokens)
      .where(and(eq(mailTokens.userId, userId), eq(mailTokens.purpose, purpose), isNull(mailTokens.usedAt)));
}
