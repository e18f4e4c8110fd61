import { registerStatusUsageProvider } from '../teams/status-usage.ts';
import { requireAlbumApprovals } from '../tracks/approvals/approval-gate.ts';
import { albumStatusesInUse, lockColumn, moveColumn } from './board.repository.ts';

let registered = false;

/** Makes the team status configuration aware of the statuses albums use (once per process). */
export function registerAlbumStatusUsage(): void {
  if (registered) return;
  registered = true;
  registerStatusUsageProvider({
    inUse: async (db, teamId, kind, ids) => (kind === 'albums' ? albumStatusesInUse(db, teamId, ids) : []),
    move: async (db, teamId, kind, from, to, target) => {
      if (kind !== 'albums') return;
      if (target.requires)
        await requireAlbumApprovals(
          db,
          target,
          await lockColumn(db, teamId, from),
          `/body/patch/moves/albums/${from}`,
        );
      await moveColumn(db, teamId, from, to);
    },
  });
}
