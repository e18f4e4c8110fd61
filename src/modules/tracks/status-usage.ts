import { registerStatusUsageProvider } from '../teams/status-usage.ts';
import { requireTrackApprovals } from './approvals/approval-gate.ts';
import { trackIdsInStatus } from './approvals/approvals.repository.ts';
import { moveTracksBetweenStatuses, trackStatusesInUse } from './tracks.repository.ts';

let registered = false;

/** Makes the team status configuration aware of the statuses tracks use (once per process). */
export function registerTrackStatusUsage(): void {
  if (registered) return;
  registered = true;
  registerStatusUsageProvider({
    inUse: async (db, teamId, kind, ids) => (kind === 'tracks' ? trackStatusesInUse(db, teamId, ids) : []),
    move: async (db, teamId, kind, from, to, target) => {
      if (kind !== 'tracks') return;
      if (target.requires)
        await requireTrackApprovals(
          db,
          target,
          await trackIdsInStatus(db, teamId, from),
          `/body/patch/moves/tracks/${from}`,
        );
      await moveTracksBetweenStatuses(db, teamId, from, to);
    },
  });
}
