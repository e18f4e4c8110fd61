import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type StatusConfig, teams } from '../../db/schema/index.ts';
import { errors } from '../../shared/errors.ts';

/**
 * A `status` list filter must name a status of the board listed (of any of the teams, for a list across
 * teams): a typo answers 400 rather than an empty page.
 */
export async function requireStatusFilter(
  db: Db,
  teamIds: number[],
  board: keyof StatusConfig,
  statusId: string | undefined,
): Promise<void> {
  if (statusId === undefined || teamIds.length === 0) return;
  const rows = await db.select({ config: teams.statusConfig }).from(teams).where(inArray(teams.id, teamIds));
  if (rows.some((row) => row.config[board].some((s) => s.id === statusId))) return;
  const kind = board === 'tracks' ? 'a track' : 'an album';
  throw errors.validation([
    { path: '/query/status', message: `is not ${kind} status of the team (${statusId})` },
  ]);
}
