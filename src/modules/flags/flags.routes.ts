import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { Flags } from './flags.schemas.ts';

/** `GET /api/v1/flags`: the signed-in user's feature flags. */
export async function flagsRoutes(app: App) {
  const flags = app.services.flags;

  app.get(
    '/api/v1/flags/',
    {
      config: { auth: auth.session },
      schema: {
        operationId: 'flags.get',
        summary: 'The feature flags of the signed-in user',
        description:
          'Session tokens only (an API key gets 403 `session_required`). Changes nothing. ' +
          'From FEATURE_FLAGS, e.g. `newEditor=true,legacyExport=false,stemSplitter=pro|label|enterprise`: a ' +
          'flag is on or off for everyone, or on for a user who belongs to at least one team on one of the ' +
          'listed plans. Every configured flag is in the answer; a flag not configured is absent.',
        response: { 200: Flags },
      },
    },
    async (request) => flags.forCaller(principalOf(request)),
  );
}
