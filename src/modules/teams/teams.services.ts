import type { Db } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Clock } from '../../shared/clock.ts';
import type { RateLimits } from '../../shared/rate-limits.ts';
import type { Departures } from '../memberships/departures.ts';
import { InvitesService } from './invites.service.ts';
import { MembersService } from './members.service.ts';
import { StatusConfigService } from './status-config.service.ts';
import { TeamsService } from './teams.service.ts';

/** The services of the teams area, spread into the application's services container. */
export function createTeamsServices(
  db: Db,
  clock: Clock,
  departures: Departures,
  events: EventLog,
  mail: { mailer: Mailer; limits: RateLimits },
) {
  return {
    teams: new TeamsService(db, clock, events),
    teamMembers: new MembersService(db, clock, departures),
    teamInvites: new InvitesService(db, clock, mail.mailer, mail.limits, events),
    teamStatusConfig: new StatusConfigService(db, clock),
  };
}
