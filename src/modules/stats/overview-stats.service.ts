import type { Db } from '../../db/client.ts';
import type { StatusDefinition } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { requireTeam } from '../../shared/tenancy.ts';
import { overviewCounts } from './overview-stats.repository.ts';

type StatusCount = { statusId: string; count: number };

/** The board's statuses in order with their counts, then statuses no longer on the board that hold items. */
function byStatus(board: StatusDefinition[], counts: StatusCount[] | null) {
  const found = new Map((counts ?? []).map((c) => [c.statusId, Number(c.count)]));
  const listed = board.map((s) => ({ statusId: s.id, name: s.name, count: found.get(s.id) ?? 0 }));
  const known = new Set(board.map((s) => s.id));
  const stray = [...found]
    .filter(([id]) => !known.has(id))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([statusId, count]) => ({ statusId, name: statusId, count }));
  const items = [...listed, ...stray];
  return { total: items.reduce((sum, s) => sum + s.count, 0), byStatus: items };
}

const window = (w: { last7Days: number; last30Days: number } | null) => ({
  last7Days: Number(w?.last7Days ?? 0),
  last30Days: Number(w?.last30Days ?? 0),
});

/** A team's dashboard numbers, for any member. */
export class OverviewStatsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async get(principal: Principal, teamId: number) {
    await requireTeam(this.db, principal, teamId);
    const row = await overviewCounts(this.db, teamId, this.clock.now());
    if (!row) throw errors.notFound('team');
    return {
      teamId,
      tracks: byStatus(row.statusConfig.tracks, row.tracksByStatus),
      albums: byStatus(row.statusConfig.albums, row.albumsByStatus),
      versions: window(row.versions),
      comments: window(row.comments),
      openTodos: row.openTodos,
      pendingReviews: row.pendingReviews,
      plays: { last30Days: row.plays30 },
      storage: { usedBytes: row.usedBytes, quotaBytes: row.quotaBytes, fileCount: row.fileCount },
    };
  }
}
