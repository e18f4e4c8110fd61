import { registerStatusUsageProvider } from '../teams/status-usage.ts';
import { albumStatusesInUse, moveColumn } from './board.repository.ts';

let registered = false;

/** Makes the team status configuration aware of the statuses albums use (once per process). */
export function registerAlbumStatusUsage(): void {
  if (registered) return;
  registered = true;
  registerStatusUsageProvider({
    inUse: async (db, teamId, kind, ids) => (kind === 'albums' ? albumStatusesInUse(db, teamId, ids) : []),
    move: async (db, teamId, kind, from, to) => {
      if (kind === 'albums') await moveColumn(db, teamId, from, to);
    },
  });
}
