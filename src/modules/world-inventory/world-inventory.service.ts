import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import { organisationsOfUser, teamsOfUser } from './world-inventory.repository.ts';

/** Everything the signed-in user can switch to: their organisations and teams, with counts. */
export class WorldInventoryService {
  constructor(private readonly db: Db) {}

  async get(principal: Principal) {
    const userId = sessionUserId(principal);
    const [teamRows, organisationRows] = await Promise.all([
      teamsOfUser(this.db, userId),
      organisationsOfUser(this.db, userId),
    ]);
    return {
      organisations: organisationRows.map(({ teams, members, ...organisation }) => ({
        ...organisation,
        counts: { teams, members },
        teamIds: teamRows.filter((t) => t.organisationId === organisation.id).map((t) => t.id),
      })),
      teams: teamRows.map(({ members, tracks, albums, ...team }) => ({
        ...team,
        counts: { members, tracks, albums },
      })),
    };
  }
}
