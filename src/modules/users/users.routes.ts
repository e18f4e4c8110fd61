import type { App } from '../../app-types.ts';
import { accountRoutes } from './account.routes.ts';
import { credentialsRoutes } from './credentials.routes.ts';
import { preferencesRoutes } from './preferences.routes.ts';
import { profileRoutes } from './profile.routes.ts';
import { pushTokensRoutes } from './push-tokens.routes.ts';
import { userSessionsRoutes } from './user-sessions.routes.ts';

/** `/api/v1/user/*`: the signed-in user's own account (session tokens only; no team involved). */
export async function usersRoutes(app: App) {
  await app.register(profileRoutes);
  await app.register(preferencesRoutes);
  await app.register(pushTokensRoutes);
  await app.register(accountRoutes);
  await app.register(userSessionsRoutes);
  await app.register(credentialsRoutes);
}
