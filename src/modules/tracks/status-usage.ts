import { registerStatusUsageProvider } from '../teams/status-usage.ts';
import { moveTracksBetweenStatuses, trackStatusesInUse } from './tracks.repository.ts';

let registered = false;

/** Makes the team status configuration aware of the statuses tracks use (once per process). */
export function registerTrackStatusUsage(): void {
  if (registered) return;
  registered = true;
  registerStatusUsageProvider({
    inUse: async (db, teamId, kind, ids) => (kind === 'tracks' ? trackStatusesInUse(db, teamId, ids) : []),
    move: async (db, teamId, kind, from, to) => {
      if (kind === 'tracks') await moveTracksBetweenStatuses(db, teamId, from, to);
    },
  });
}
