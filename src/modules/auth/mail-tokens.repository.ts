import { and, eq, gt, inArray, lte, or } from 'drizzle-orm';
import type { Db, DbTransaction } from '../../db/client.ts';
import { type MailTokenPurpose, mailTokens } from '../../db/schema/index.ts';

type Executor = Db | DbTransaction;

/**
 * Stores a new token of `purpose` for the user: the user's earlier tokens of that purpose stop working, and
 * their expired ones of any purpose go too (so rows are bounded by accounts, not by requests).
 */
export async function replaceMailToken(
  tx: Executor,
  values: { tokenHash: string; userId: string; purpose: MailTokenPurpose; email: string; expiresAt: Date },
  now: Date,
): Promise<void> {
  await tx
    .delete(mailTokens)
    .where(
      and(
        eq(mailTokens.userId, values.userId),
        or(eq(mailTokens.purpose, values.purpose), lte(mailTokens.expiresAt, now)),
      ),
    );
  await tx.insert(mailTokens).values(values);
}

/**
 * Spends a live (unexpired) token: the row goes, and what it was for is answered; undefined when there is
 * none. Of concurrent presentations of one token, only one gets it.
 */
export async function spendMailToken(tx: Executor, tokenHash: string, now: Date) {
  const [row] = await tx
    .delete(mailTokens)
    .where(and(eq(mailTokens.tokenHash, tokenHash), gt(mailTokens.expiresAt, now)))
    .returning({ userId: mailTokens.userId, purpose: mailTokens.purpose, email: mailTokens.email });
  return row;
}

/** The live token's purpose and account without spending it; undefined when there is none. */
export async function peekMailToken(db: Executor, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ userId: mailTokens.userId, purpose: mailTokens.purpose, email: mailTokens.email })
    .from(mailTokens)
    .where(and(eq(mailTokens.tokenHash, tokenHash), gt(mailTokens.expiresAt, now)))
    .limit(1);
  return row;
}

/** Voids the user's tokens of these purposes (an address or password that changed). */
export async function dropMailTokens(
  tx: Executor,
  userId: string,
  purposes: MailTokenPurpose[],
): Promise<void> {
  await tx
    .delete(mailTokens)
    .where(and(eq(mailTokens.userId, userId), inArray(mailTokens.purpose, purposes)));
}
