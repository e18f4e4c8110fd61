import type { App } from '../../app-types.ts';
import { assetsRoutes } from './assets.routes.ts';
import { collaboratorsRoutes } from './collaborators.routes.ts';
import { collectionsRoutes } from './collections.routes.ts';
import { commentAttachmentsRoutes } from './comment-attachments.routes.ts';
import { commentsRoutes } from './comments.routes.ts';
import { coversRoutes } from './covers.routes.ts';
import { playsRoutes } from './plays.routes.ts';
import { reviewsRoutes } from './reviews.routes.ts';
import { searchRoutes } from './search.routes.ts';
import { stemsRoutes } from './stems.routes.ts';
import { todosRoutes } from './todos.routes.ts';
import { trackMediaRoutes } from './track-media.routes.ts';
import { tracksRoutes } from './tracks.routes.ts';
import { versionFilesRoutes } from './version-files.routes.ts';
import { versionsRoutes } from './versions.routes.ts';

/** Every route of the tracks area, by sub-resource. */
export async function tracksModuleRoutes(app: App) {
  await app.register(searchRoutes);
  await app.register(tracksRoutes);
  await app.register(versionsRoutes);
  await app.register(todosRoutes);
  await app.register(commentsRoutes);
  await app.register(commentAttachmentsRoutes);
  await app.register(coversRoutes);
  await app.register(trackMediaRoutes);
  await app.register(reviewsRoutes);
  await app.register(collaboratorsRoutes);
  await app.register(collectionsRoutes);
  await app.register(assetsRoutes);
  await app.register(stemsRoutes);
  await app.register(versionFilesRoutes);
  await app.register(playsRoutes);
}
