import type { App } from '../../app-types.ts';
import { publicTourCoverRoutes } from './public-covers.routes.ts';
import { tourCoversRoutes } from './tour-covers.routes.ts';
import { toursRoutes } from './tours.routes.ts';

/** Every route of the tours area. */
export async function toursModuleRoutes(app: App) {
  await app.register(toursRoutes);
  await app.register(tourCoversRoutes);
  await app.register(publicTourCoverRoutes);
}
