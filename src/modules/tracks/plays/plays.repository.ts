import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { users, versionPlays } from '../../../db/schema/index.ts';

/** Who played: a user (a session), or an API key. */
export type Listener = { userId: string; keyId: null } | { userId: null; keyId: number };

// Namespace of the advisory locks that serialise the plays of one version (the second key is its id).
const PLAY_LOCK_NAMESPACE = 0x706c6179;

/**
 * Records a play of a version unless the same listener played it within `repeatSeconds` (a player that
 * probes the first bytes and then fetches again is one play), or the version is gone.
 */
export async function insertPlay(
  db: Db,
  versionId: number,
  listener: Listener,
  now: Date,
  repeatSeconds: number,
): Promise<void> {
  const since = new Date(now.getTime() - repeatSeconds * 1000);
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(${PLAY_LOCK_NAMESPACE}::integer, ${versionId}::integer)`,
    );
    await tx.execute(sql`
      insert into version_plays (version_id, user_id, key_id, played_at)
      select v.id, ${listener.userId}::uuid, ${listener.keyId}::integer, ${now.toISOString()}::timestamptz
      from track_versions v
      where v.id = ${versionId}
        and not exists (
          select 1 from version_plays p
          where p.version_id = v.id
            and p.user_id is not distinct from ${listener.userId}::uuid
            and p.key_id is not distinct from ${listener.keyId}::integer
            and p.played_at > ${since.toISOString()}::timestamptz
        )`);
  });
}

/** The plays of a version, newest first, after the keyset `[playedAt, id]`. */
export async function listPlays(db: Db, versionId: number, limit: number, before?: [string, number]) {
  return db
    .select({
      id: versionPlays.id,
      versionId: versionPlays.versionId,
      playedAt: versionPlays.playedAt,
      userId: versionPlays.userId,
      userName: users.name,
      keyId: versionPlays.keyId,
    })
    .from(versionPlays)
    .leftJoin(users, eq(users.id, versionPlays.userId))
    .where(
      and(
        eq(versionPlays.versionId, versionId),
        before
          ? sql`(${versionPlays.playedAt}, ${versionPlays.id}) < (${before[0]}::timestamptz, ${before[1]})`
          : undefined,
      ),
    )
    .orderBy(desc(versionPlays.playedAt), desc(versionPlays.id))
    .limit(limit);
}
