import type { Db } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Clock } from '../../shared/clock.ts';
import type { RateLimits } from '../../shared/rate-limits.ts';
import { ContactsService } from './contacts.service.ts';
import { ContactGroupsService } from './groups/groups.service.ts';
import { PlatformUsersService } from './people/platform-users.service.ts';
import { TogetherService } from './people/together.service.ts';
import { ContactTimelineService } from './timeline/timeline.service.ts';

/** The services of the contacts area, spread into the application's services container. */
export function createContactsServices(db: Db, clock: Clock, events: EventLog, limits: RateLimits) {
  return {
    contacts: new ContactsService(db, clock, events),
    contactGroups: new ContactGroupsService(db, clock, events),
    contactTimeline: new ContactTimelineService(db),
    platformUsers: new PlatformUsersService(db, limits),
    together: new TogetherService(db),
  };
}
