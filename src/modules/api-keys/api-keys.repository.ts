import { and, desc, eq, gt, inArray, isNull, lt, or, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type Placeholders, preparedQuery } from '../../db/prepared.ts';
import { apiKeys, plans, teams } from '../../db/schema/index.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertApiKey(db: Db, values: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  return row!;
}

/** Live keys of a team, newest first, in pages of `limit` after the key id `before`. */
export async function listApiKeys(
  db: Db,
  teamId: number,
  limit: number,
  before?: number,
): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(
      and(eq(apiKeys.teamId, teamId), isNull(apiKeys.revokedAt), before ? lt(apiKeys.id, before) : undefined),
    )
    .orderBy(desc(apiKeys.id))
    .limit(limit);
}

/** A key that stopped working, as the consumers of its revocation need it. */
export type RevokedKey = { id: number; teamId: number; createdBy: string | null };

const revokedKey = { id: apiKeys.id, teamId: apiKeys.teamId, createdBy: apiKeys.createdBy };

export async function revokeApiKey(
  db: Db,
  teamId: number,
  keyId: number,
  now: Date,
): Promise<RevokedKey | null> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.teamId, teamId), isNull(apiKeys.revokedAt)))
    .returning(revokedKey);
  return rows[0] ?? null;
}

/**
 * Revokes the live keys the given people created, in one team or (without `teamId`) in every team, and answers
 * them. Called (through `Departures`) in the transaction that ends or lowers their membership: a key never
 * outlives its creator's admin rights.
 */
export async function revokeKeysCreatedBy(
  db: Db,
  creators: readonly string[],
  now: Date,
  teamId?: number,
): Promise<RevokedKey[]> {
  if (creators.length === 0) return [];
  return db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(
      and(
        inArray(apiKeys.createdBy, [...creators]),
        teamId === undefined ? undefined : eq(apiKeys.teamId, teamId),
        isNull(apiKeys.revokedAt),
      ),
    )
    .returning(revokedKey);
}

/** Neither revoked nor expired at `now`. */
const liveAt = (now: SQLWrapper) =>
  and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)));

const liveKeyByHash = preparedQuery(
  'api_keys_live_by_hash',
  (db, p: Placeholders<{ keyHash: string; now: Date }>) =>
    db
      .select({
        id: apiKeys.id,
        teamId: apiKeys.teamId,
        scopes: apiKeys.scopes,
        lastUsedAt: apiKeys.lastUsedAt,
        requestsPerMinute: plans.apiRequestsPerMinute,
      })
      .from(apiKeys)
      .innerJoin(teams, eq(teams.id, apiKeys.teamId))
      .innerJoin(plans, eq(plans.id, teams.planId))
      .where(and(eq(apiKeys.keyHash, p.keyHash), liveAt(p.now)))
      .limit(1),
);

const keyLive = preparedQuery('api_keys_live_by_id', (db, p: Placeholders<{ keyId: number; now: Date }>) =>
  db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, p.keyId), liveAt(p.now)))
    .limit(1),
);

/** Whether the key is neither revoked nor expired. */
export async function isKeyLive(db: Db, keyId: number, now: Date): Promise<boolean> {
  const [row] = await keyLive(db, { keyId, now });
  return row !== undefined;
}

/** The live key with this hash, with its team's request limit. */
export async function findLiveKeyByHash(db: Db, keyHash: string, now: Date) {
  const [row] = await liveKeyByHash(db, { keyHash, now });
  return row;
}

export async function touchApiKey(db: Db, keyId: number, now: Date): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, keyId));
}
