import type { Db } from '../../db/client.ts';
import type { StatusDefinition } from '../../db/schema/index.ts';
import { errors } from '../../shared/errors.ts';
import { lockTeam } from '../teams/teams.repository.ts';

/**
 * Locks the team's track board until the transaction ends and answers its track statuses. Every change of a
 * track's status or board position takes it first, so positions stay unique per column under concurrent
 * requests and a track never moves into a status a concurrent configuration change removes.
 */
export async function lockTrackBoard(tx: Db, teamId: number): Promise<StatusDefinition[]> {
  const team = await lockTeam(tx, teamId);
  return team?.statusConfig.tracks ?? [];
}

/** Locks the board (see lockTrackBoard) and answers the status; one the team does not have is 400 at `path`. */
export async function requireBoardStatus(
  tx: Db,
  teamId: number,
  statusId: string,
  path: string,
): Promise<StatusDefinition> {
  const statuses = await lockTrackBoard(tx, teamId);
  const status = statuses.find((s) => s.id === statusId);
  if (!status)
    throw errors.validation([{ path, message: `is not a track status of the team (${statusId})` }]);
  return status;
}
