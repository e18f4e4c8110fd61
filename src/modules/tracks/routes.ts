import type { App } from '../../app-types.ts';
import { assetsRoutes } from './assets/assets.routes.ts';
import { collaboratorsRoutes } from './collaborators/collaborators.routes.ts';
import { collectionsRoutes } from './collections/collections.routes.ts';
import { commentAttachmentsRoutes } from './comments/comment-attachments.routes.ts';
import { commentsRoutes } from './comments/comments.routes.ts';
import { compareRoutes } from './compare/compare.routes.ts';
import { coversRoutes } from './covers/covers.routes.ts';
import { trackMediaRoutes } from './media/track-media.routes.ts';
import { musicToolsRoutes } from './music-tools/music-tools.routes.ts';
import { playsRoutes } from './plays/plays.routes.ts';
import { reviewsRoutes } from './reviews/reviews.routes.ts';
import { searchRoutes } from './search/search.routes.ts';
import { stemsRoutes } from './stems/stems.routes.ts';
import { todosRoutes } from './todos/todos.routes.ts';
import { tracksRoutes } from './tracks.routes.ts';
import { versionFilesRoutes } from './version-files/version-files.routes.ts';
import { versionsRoutes } from './versions/versions.routes.ts';

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
  await app.register(musicToolsRoutes);
  await app.register(compareRoutes);
}
