import { and, desc, eq, getTableColumns, lt } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { campFiles, files, pendingUploads } from '../../../db/schema/index.ts';
import { CAMP_FILE } from './camp-files.cleanup.ts';

/** A page of the camp's registered files, newest first, after the file id `before`. */
export function listCampFiles(db: Db, campId: number, limit: number, before?: number) {
  return db
    .select({ file: getTableColumns(files), uploadedBy: campFiles.createdBy })
    .from(campFiles)
    .innerJoin(files, eq(files.id, campFiles.fileId))
    .where(and(eq(campFiles.campId, campId), before ? lt(campFiles.fileId, before) : undefined))
    .orderBy(desc(campFiles.fileId))
    .limit(limit);
}

/** Where a file of the camp lives and who uploaded it, registered or still pending; undefined if neither. */
export async function locateCampFile(db: Db, campId: number, fileId: number) {
  const [stored] = await db
    .select({ teamId: campFiles.teamId, uploadedBy: campFiles.createdBy })
    .from(campFiles)
    .where(and(eq(campFiles.fileId, fileId), eq(campFiles.campId, campId)));
  if (stored) return stored;
  const [pending] = await db
    .select({ teamId: pendingUploads.teamId, uploadedBy: pendingUploads.createdBy })
    .from(pendingUploads)
    .where(
      and(
        eq(pendingUploads.id, fileId),
        eq(pendingUploads.ownerType, CAMP_FILE),
        eq(pendingUploads.ownerId, String(campId)),
      ),
    );
  return pending;
}

export async function insertCampFile(db: Db, values: typeof campFiles.$inferInsert): Promise<void> {
  await db.insert(campFiles).values(values).onConflictDoNothing();
}
