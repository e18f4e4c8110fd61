import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import type { Departures } from '../memberships/departures.ts';
import { InvitesService } from './invites.service.ts';
import { MembersService } from './members.service.ts';
import { StatusConfigService } from './status-config.service.ts';
import { TeamsService } from './teams.service.ts';

/** The services of the teams area, spread into the application's services container. */
export function createTeamsServices(db: Db, clock: Clock, departures: Departures) {
  return {
    teams: new TeamsService(db, clock),
    teamMembers: new MembersService(db, clock, departures),
    teamInvites: new InvitesService(db, clock),
    teamStatusConfig: new StatusConfigService(db, clock),
  };
}
