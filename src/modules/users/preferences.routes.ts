import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { Preferences, PreferencesPatch } from './preferences.ts';

const session = { config: { auth: auth.session } } as const;

export async function preferencesRoutes(app: App) {
  const preferences = app.services.users.preferences;

  app.get(
    '/api/v1/user/preferences',
    {
      ...session,
      schema: {
        operationId: 'user.preferences.get',
        summary: 'The user’s preferences, with defaults for those never set',
        description:
          'Session tokens only (an API key gets 403 `session_required`). Every preference of the closed set, ' +
          'the stored value or its default. Changes nothing.',
        response: { 200: Preferences },
      },
    },
    async (request) => preferences.get(principalOf(request)),
  );

  app.patch(
    '/api/v1/user/preferences',
    {
      ...session,
      schema: {
        operationId: 'user.preferences.update',
        summary: 'Change some preferences; answers all of them',
        description:
          'Session tokens only. A partial update of the closed set of preference fields (see the body schema for ' +
          'types and defaults); the notification switches decide which notifications (and pushes) the user ' +
          'gets from then on. At least one field; unknown fields, time zones that are not IANA names and ' +
          'malformed language tags get 400 validation_failed.',
        body: PreferencesPatch,
        response: { 200: Preferences },
      },
    },
    async (request) => preferences.update(principalOf(request), request.body),
  );
}
