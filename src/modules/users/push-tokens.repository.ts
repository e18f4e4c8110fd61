import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type PushPlatform, pushTokens } from '../../db/schema/index.ts';

export type PushTokenRow = typeof pushTokens.$inferSelect;

/**
 * Registers a token for the user, taking it over from whoever held it. `created` is false only when the user
 * already held it; then its creation time is kept and only platform and last-seen change.
 */
export async function upsertPushToken(
  db: Db,
  values: { userId: string; token: string; tokenHash: string; platform: PushPlatform; now: Date },
): Promise<{ row: PushTokenRow; created: boolean }> {
  const { userId, token, tokenHash, platform, now } = values;
  return db.transaction(async (tx) => {
    const [prior] = await tx
      .select({ userId: pushTokens.userId })
      .from(pushTokens)
      .where(eq(pushTokens.tokenHash, tokenHash))
      .for('update');
    const [row] = await tx
      .insert(pushTokens)
      .values({ userId, token, tokenHash, platform, createdAt: now, lastSeenAt: now })
      .onConflictDoUpdate({
        target: pushTokens.tokenHash,
        set: {
          userId,
          platform,
          lastSeenAt: now,
          createdAt: sql`case when ${pushTokens.userId} = excluded.user_id then ${pushTokens.createdAt} else excluded.created_at end`,
        },
      })
      .returning();
    return { row: row!, created: prior?.userId !== userId };
  });
}

/** Removes the user's registration of a token; another user's registration of it is left alone. */
export async function deletePushToken(db: Db, userId: string, tokenHash: string): Promise<void> {
  await db.delete(pushTokens).where(and(eq(pushTokens.tokenHash, tokenHash), eq(pushTokens.userId, userId)));
}

export async function deletePushTokensOf(db: Db, userId: string): Promise<void> {
  await db.delete(pushTokens).where(eq(pushTokens.userId, userId));
}
