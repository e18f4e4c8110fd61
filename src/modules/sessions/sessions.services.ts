import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Clock } from '../../shared/clock.ts';
import { publicBaseUrl } from '../../shared/public-url.ts';
import type { RateLimits } from '../../shared/rate-limits.ts';
import type { Secrets } from '../../shared/secrets.ts';
import { withoutTrailing } from '../../shared/text.ts';
import type { FilesService } from '../files/files.service.ts';
import { CalendarService } from './calendar/calendar.service.ts';
import { CanvasService } from './canvas/canvas.service.ts';
import { SessionFilesService } from './files/session-files.service.ts';
import { MarkersService } from './markers/markers.service.ts';
import { ParticipantsService } from './participants/participants.service.ts';
import { RecordingsService } from './recordings/recordings.service.ts';
import { SessionEvents } from './session-events.ts';
import { sessionLinkSigners } from './session-links.ts';
import { SessionsService } from './sessions.service.ts';
import { SongsService } from './songs/songs.service.ts';

type Deps = {
  db: Db;
  clock: Clock;
  config: Config;
  secrets: Secrets;
  files: FilesService;
  /** The log each change of the area is recorded in. */
  events: EventLog;
  mailer: Mailer;
  limits: RateLimits;
};

/** The services of the studio sessions area, spread into the application's services container. */
export function createSessionsServices(deps: Deps) {
  const { db, clock, config, secrets, files } = deps;
  const events = new SessionEvents(deps.events);
  const signers = sessionLinkSigners(secrets.urlSigningSecret);
  const baseUrl = withoutTrailing(publicBaseUrl(config), (c) => c === '/');
  return {
    sessions: new SessionsService(db, clock, files, events),
    sessionParticipants: new ParticipantsService(
      db,
      clock,
      events,
      signers,
      baseUrl,
      deps.mailer,
      deps.limits,
    ),
    sessionCalendar: new CalendarService(db, clock, deps.events, signers, baseUrl),
    sessionFiles: new SessionFilesService(db, files, events),
    sessionSongs: new SongsService(db, clock, events),
    sessionRecordings: new RecordingsService(db, clock, files, events),
    sessionMarkers: new MarkersService(db, clock, events),
    sessionCanvas: new CanvasService(db, clock, events),
  };
}
