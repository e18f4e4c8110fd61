import { and, eq, gt, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apiKeys, teams, users, walletTokens } from '../../db/schema/index.ts';

/** Who a wallet token belongs to: the user of a session, or an API key. */
export type Holder = { userId: string; apiKeyId: null } | { userId: null; apiKeyId: number };

const heldBy = (holder: Holder) =>
  holder.userId !== null
    ? eq(walletTokens.userId, holder.userId)
    : eq(walletTokens.apiKeyId, holder.apiKeyId);

/** Stores a new token's hash, and clears the holder's used and expired ones so they never pile up. */
export async function insertToken(db: Db, holder: Holder, tokenHash: string, now: Date, expiresAt: Date) {
  await db.transaction(async (tx) => {
    await tx
      .delete(walletTokens)
      .where(and(heldBy(holder), or(isNotNull(walletTokens.usedAt), lte(walletTokens.expiresAt, now))));
    await tx.insert(walletTokens).values({ tokenHash, ...holder, expiresAt, createdAt: now });
  });
}

const usable = (holder: Holder, tokenHash: string, now: Date) =>
  and(
    eq(walletTokens.tokenHash, tokenHash),
    heldBy(holder),
    isNull(walletTokens.usedAt),
    gt(walletTokens.expiresAt, now),
  );

/** Whether the holder has this token, unused and unexpired, without using it. */
export async function tokenIsUsable(db: Db, holder: Holder, tokenHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .select({ tokenHash: walletTokens.tokenHash })
    .from(walletTokens)
    .where(usable(holder, tokenHash, now))
    .limit(1);
  return rows.length > 0;
}

/**
 * Marks the token used when it is the holder's, unused and unexpired: one statement, so of two uses at the
 * same time (in any process) exactly one gets true.
 */
export async function useToken(db: Db, holder: Holder, tokenHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(walletTokens)
    .set({ usedAt: now })
    .where(usable(holder, tokenHash, now))
    .returning({ tokenHash: walletTokens.tokenHash });
  return rows.length > 0;
}

export async function findUser(db: Db, userId: string) {
  const [row] = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

export async function findKeyTeam(db: Db, apiKeyId: number) {
  const [row] = await db
    .select({ teamId: teams.id, teamName: teams.name, keyName: apiKeys.name })
    .from(apiKeys)
    .innerJoin(teams, eq(teams.id, apiKeys.teamId))
    .where(eq(apiKeys.id, apiKeyId));
  return row;
}
