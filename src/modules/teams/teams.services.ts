import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import { InvitesService } from './invites.service.ts';
import { MembersService } from './members.service.ts';
import { StatusConfigService } from './status-config.service.ts';
import { TeamsService } from './teams.service.ts';

/** The services of the teams area, spread into the application's services container. */
export function createTeamsServices(db: Db, clock: Clock) {
  return {
    teams: new TeamsService(db, clock),
    teamMembers: new MembersService(db, clock),
    teamInvites: new InvitesService(db, clock),
    teamStatusConfig: new StatusConfigService(db, clock),
  };
}
