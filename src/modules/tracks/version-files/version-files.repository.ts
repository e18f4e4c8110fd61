import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { files, trackVersions } from '../../../db/schema/index.ts';
import { VERSION_FILE_OWNER } from '../version-audio.ts';

/** How many additional files the version holds; with `lock`, the version is locked until the transaction ends. */
export async function countVersionFiles(db: Db, teamId: number, versionId: number, lock = false) {
  if (lock)
    await db
      .select({ id: trackVersions.id })
      .from(trackVersions)
      .where(eq(trackVersions.id, versionId))
      .for('no key update');
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(files)
    .where(
      and(
        eq(files.teamId, teamId),
        eq(files.ownerType, VERSION_FILE_OWNER),
        eq(files.ownerId, String(versionId)),
      ),
    );
  return row?.n ?? 0;
}
