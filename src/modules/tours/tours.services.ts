import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import { publicBaseUrl } from '../../shared/public-url.ts';
import type { FilesService } from '../files/files.service.ts';
import { PublicTourCovers } from './public-covers.service.ts';
import { TourCoversService } from './tour-covers.service.ts';
import { ToursService } from './tours.service.ts';

/** The services of the tours area, spread into the application's services container. */
export function createToursServices(deps: { db: Db; clock: Clock; config: Config; files: FilesService }) {
  const { db, clock, files } = deps;
  // Public cover URLs are handed to people outside the team: they are built on the public origin.
  const baseUrl = publicBaseUrl(deps.config);
  return {
    tours: new ToursService(db, clock, files, baseUrl),
    tourCovers: new TourCoversService(db, clock, files, baseUrl),
    publicTourCovers: new PublicTourCovers(db, files.store),
  };
}
