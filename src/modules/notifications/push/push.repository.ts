import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../../../db/client.ts';
import { jobs, type PushPlatform, pushTokens } from '../../../db/schema/index.ts';

export type DeviceToken = { tokenHash: string; token: string; platform: PushPlatform };

/** The user's devices, oldest registration first. */
export function tokensOf(db: Db, userId: string): Promise<DeviceToken[]> {
  return db
    .select({ tokenHash: pushTokens.tokenHash, token: pushTokens.token, platform: pushTokens.platform })
    .from(pushTokens)
    .where(eq(pushTokens.userId, userId))
    .orderBy(pushTokens.id);
}

/** Whether the user has a device on one of the platforms. */
export async function hasDeviceOn(
  executor: Db | DbTransaction,
  userId: string,
  platforms: readonly PushPlatform[],
): Promise<boolean> {
  const [row] = await executor
    .select({ id: pushTokens.id })
    .from(pushTokens)
    .where(and(eq(pushTokens.userId, userId), inArray(pushTokens.platform, [...platforms])))
    .limit(1);
  return row !== undefined;
}

/**
 * Removes a token its provider declared dead, if the user still holds it: one moved to another account
 * since (the device signed in as someone else) is that account's now and stays.
 */
export async function deleteDeadToken(db: Db, userId: string, tokenHash: string): Promise<boolean> {
  const rows = await db
    .delete(pushTokens)
    .where(and(eq(pushTokens.tokenHash, tokenHash), eq(pushTokens.userId, userId)))
    .returning({ id: pushTokens.id });
  return rows.length > 0;
}

/**
 * Remembers in the running job's payload which devices are settled (accepted the message, or refused it for
 * good), so a retry skips them.
 * Conditioned on the attempt, so a run that lost its claim writes nothing.
 */
export async function recordSettled(
  db: Db,
  job: { id: string; attempt: number },
  tokenHashes: readonly string[],
): Promise<void> {
  await db
    .update(jobs)
    .set({
      payload: sql`${jobs.payload} || jsonb_build_object('done', ${JSON.stringify(tokenHashes)}::jsonb)`,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running'), eq(jobs.attempts, job.attempt)));
}
