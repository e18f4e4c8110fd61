import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import { recordActivityBy } from '../activity/activity.ts';

/** Records an activity entry about an album (or, for a board reorder, a status column) of the team. */
export function recordAlbumActivity(
  tx: Db,
  principal: Principal,
  teamId: number,
  action: string,
  subjectId: number | string,
  data?: Record<string, unknown>,
): Promise<void> {
  return recordActivityBy(tx, principal, { teamId, action, subjectType: 'album', subjectId, data });
}
