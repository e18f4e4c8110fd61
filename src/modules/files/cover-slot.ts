import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { files, type tours, type tracks } from '../../db/schema/index.ts';

/** A table whose rows show one of their cover images: the reference lives in `cover_file_id`. */
type CoveredTable = typeof tracks | typeof tours;

/**
 * The queries behind "one current cover" for a resource whose covers are files owned by it
 * (`files.owner_type = ownerType`, `owner_id` = the resource's id).
 */
export function coverSlot(table: CoveredTable, ownerType: string) {
  // Both tables spell these columns alike; one view of them keeps Drizzle's types exact.
  const resource = table as typeof tracks;
  return {
    /**
     * A registered cover of the resource, locked until the transaction ends so it cannot be deleted while
     * it is being made current; undefined when the resource has no such cover (any more).
     */
    async lockCoverFile(db: Db, teamId: number, resourceId: number, coverId: number) {
      const [row] = await db
        .select()
        .from(files)
        .where(
          and(
            eq(files.teamId, teamId),
            eq(files.id, coverId),
            eq(files.ownerType, ownerType),
            eq(files.ownerId, String(resourceId)),
          ),
        )
        .for('share');
      return row;
    },

    async setCurrentCover(db: Db, resourceId: number, coverId: number, now: Date): Promise<void> {
      await db
        .update(resource)
        .set({ coverFileId: coverId, updatedAt: now })
        .where(eq(resource.id, resourceId));
    },

    /** Makes the cover current when the resource has none; whether it did. */
    async setCoverIfNone(db: Db, resourceId: number, coverId: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(resource)
        .set({ coverFileId: coverId, updatedAt: now })
        .where(and(eq(resource.id, resourceId), isNull(resource.coverFileId)))
        .returning({ id: resource.id });
      return rows.length > 0;
    },

    async currentCoverId(db: Db, resourceId: number): Promise<number | null> {
      const [row] = await db
        .select({ coverFileId: resource.coverFileId })
        .from(resource)
        .where(eq(resource.id, resourceId))
        .limit(1);
      return row?.coverFileId ?? null;
    },
  };
}
