import type { Db } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Clock } from '../../shared/clock.ts';
import type { RateLimits } from '../../shared/rate-limits.ts';
import type { FilesService } from '../files/files.service.ts';
import type { Departures } from '../memberships/departures.ts';
import { CampFilesService } from './camps/camp-files.service.ts';
import { CampsService } from './camps/camps.service.ts';
import { ListeningService } from './camps/listening.service.ts';
import { OrganisationInvitationsService } from './invitations/invitations.service.ts';
import { OrganisationMembersService } from './members.service.ts';
import { OrganisationTeamsService } from './organisation-teams.service.ts';
import { OrganisationsService } from './organisations.service.ts';
import { PlacesService } from './places/places.service.ts';
import { RollupsService } from './rollups/rollups.service.ts';
import { ScheduleService } from './schedule/schedule.service.ts';

/** The services of the organisations area (organisations, members, invitations, places, camps, roll-ups). */
export function createOrganisationsServices(
  db: Db,
  clock: Clock,
  events: EventLog,
  files: FilesService,
  departures: Departures,
  mail: { mailer: Mailer; limits: RateLimits },
) {
  const organisations = new OrganisationsService(db, clock, files, events);
  const members = new OrganisationMembersService(db, clock, departures, events);
  return {
    organisations,
    teams: new OrganisationTeamsService(db, clock, events),
    members,
    invitations: new OrganisationInvitationsService(
      db,
      clock,
      members,
      organisations,
      mail.mailer,
      mail.limits,
    ),
    places: new PlacesService(db, clock, events),
    camps: new CampsService(db, clock, files, events),
    listening: new ListeningService(db, clock, events),
    campFiles: new CampFilesService(db, files, events),
    rollups: new RollupsService(db, clock),
    schedule: new ScheduleService(db),
  };
}
