import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Clock } from '../../shared/clock.ts';
import type { Departures } from '../memberships/departures.ts';
import { defineAccountJobs } from './account.jobs.ts';
import { AccountService } from './account.service.ts';
import { PreferencesService } from './preferences.service.ts';
import { ProfileService } from './profile.service.ts';
import { PushTokensService } from './push-tokens.service.ts';
import { UserSessionsService } from './user-sessions.service.ts';

/** The services behind `/api/v1/user/*`: everything about the signed-in user that needs no team. */
export function createUsersServices(db: Db, clock: Clock, jobs: JobQueue, departures: Departures) {
  defineAccountJobs(jobs, db, clock, departures);
  return {
    profile: new ProfileService(db, clock),
    preferences: new PreferencesService(db, clock),
    pushTokens: new PushTokensService(db, clock),
    account: new AccountService(db, clock, departures),
    sessions: new UserSessionsService(db, clock),
  };
}
