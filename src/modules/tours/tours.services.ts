import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Clock } from '../../shared/clock.ts';
import { publicBaseUrl } from '../../shared/public-url.ts';
import type { FilesService } from '../files/files.service.ts';
import { PublicTourCovers } from './public-covers.service.ts';
import { TourCoversService } from './tour-covers.service.ts';
import { ToursService } from './tours.service.ts';

/** The services of the tours area, spread into the application's services container. */
export function createToursServices(deps: {
  db: Db;
  clock: Clock;
  config: Config;
  files: FilesService;
  events: EventLog;
}) {
  const { db, clock, files, events } = deps;
  // Public cover URLs are handed to people outside the team: they are built on the public origin.
  const baseUrl = publicBaseUrl(deps.config);
  return {
    tours: new ToursService(db, clock, files, baseUrl, events),
    tourCovers: new TourCoversService(db, clock, files, baseUrl, events),
    publicTourCovers: new PublicTourCovers(db, files.store),
  };
}
