import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { campFiles, pendingUploads } from '../../../db/schema/index.ts';
import type { FilesService } from '../../files/files.service.ts';

/** Files shared with a camp are owned by it: owner type `camp_file`, owner id the camp's id. */
export const CAMP_FILE = 'camp_file';

/**
 * Deletes the shared files of the camps, registered and pending, with their bytes, in `tx` (from
 * `files.transaction`, so the bytes go once it commits). Each file sits on the team that uploaded it.
 */
export async function deleteFilesOfCamps(files: FilesService, tx: Db, campIds: number[]): Promise<void> {
  if (campIds.length === 0) return;
  const ownerIds = campIds.map(String);
  const [stored, pending] = await Promise.all([
    tx.selectDistinct({ teamId: campFiles.teamId }).from(campFiles).where(inArray(campFiles.campId, campIds)),
    tx
      .selectDistinct({ teamId: pendingUploads.teamId })
      .from(pendingUploads)
      .where(and(eq(pendingUploads.ownerType, CAMP_FILE), inArray(pendingUploads.ownerId, ownerIds))),
  ]);
  const teamIds = new Set([...stored, ...pending].map((row) => row.teamId));
  for (const teamId of teamIds) {
    await files.deleteOfOwners(teamId, [{ type: CAMP_FILE, ids: campIds }], { tx });
  }
}
