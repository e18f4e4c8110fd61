import type { App } from '../../app-types.ts';
import { bySlugRoutes } from './by-slug.routes.ts';
import { interviewPartsRoutes } from './interview-parts.routes.ts';
import { interviewsRoutes } from './interviews.routes.ts';

/** Every route of the interviews area. */
export async function interviewsModuleRoutes(app: App) {
  await app.register(interviewsRoutes);
  await app.register(interviewPartsRoutes);
  await app.register(bySlugRoutes);
}
