import type { Db } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Clock } from '../../shared/clock.ts';
import { InterviewPartsService } from './interview-parts.service.ts';
import { InterviewsService } from './interviews.service.ts';
import { PublishedInterviewsService } from './published.service.ts';

/** The services of the interviews area, spread into the application's services container. */
export function createInterviewsServices(db: Db, clock: Clock, events: EventLog) {
  return {
    interviews: new InterviewsService(db, clock, events),
    interviewParts: new InterviewPartsService(db),
    publishedInterviews: new PublishedInterviewsService(db),
  };
}
