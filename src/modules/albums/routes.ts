import type { App } from '../../app-types.ts';
import { albumTracksRoutes } from './album-tracks.routes.ts';
import { albumsRoutes } from './albums.routes.ts';
import { albumCoverRoutes } from './cover.routes.ts';

/** Every route of the albums area, by sub-resource. */
export async function albumsModuleRoutes(app: App) {
  await app.register(albumsRoutes);
  await app.register(albumTracksRoutes);
  await app.register(albumCoverRoutes);
}
