import type { App } from '../../app-types.ts';
import { auth } from '../../plugins/auth.ts';
import { AppVersion } from './app-version.schemas.ts';

/** `GET /api/v1/app-version`: what clients compare themselves with, from configuration. */
export async function appVersionRoutes(app: App) {
  const { appVersion } = app.deps.config;

  app.get(
    '/api/v1/app-version/',
    {
      config: { auth: auth.anyToken },
      schema: {
        operationId: 'appVersion.get',
        summary: 'The latest and the minimum supported app versions per platform',
        description:
          'Any valid token: a session or an API key (no scope). Changes nothing. ' +
          'Set by the APP_VERSION_LATEST_* and APP_VERSION_MINIMUM_* variables (IOS, ANDROID, WEB) and ' +
          'APP_UPDATE_URL; a value not configured is null.',
        response: { 200: AppVersion },
      },
    },
    async () => appVersion,
  );
}
