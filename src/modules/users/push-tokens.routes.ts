import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { NoContent } from '../../shared/schemas.ts';
import { DeletePushTokenBody, PushToken, RegisterPushTokenBody } from './users.schemas.ts';

const session = { config: { auth: auth.session } } as const;

export async function pushTokensRoutes(app: App) {
  const pushTokens = app.services.users.pushTokens;

  app.post(
    '/api/v1/user/push-tokens',
    {
      ...session,
      schema: {
        operationId: 'user.pushTokens.register',
        summary: 'Register a device push token (idempotent)',
        description:
          'Session tokens only (an API key gets 403 `session_required`). Push notifications for the user go ' +
          'to the tokens registered here, through the configured providers. ' +
          '201 when the token is new to the user (also when it moves here from another account: a token ' +
          'belongs to one user); 200 when the user already had it, which updates its platform and last-seen time.',
        body: RegisterPushTokenBody,
        response: {
          200: { ...PushToken, description: 'Already registered to the user; refreshed' },
          201: { ...PushToken, description: 'Newly registered to the user' },
        },
      },
    },
    async (request, reply) => {
      const { created, pushToken } = await pushTokens.register(principalOf(request), request.body);
      return reply.code(created ? 201 : 200).send(pushToken);
    },
  );

  app.delete(
    '/api/v1/user/push-tokens',
    {
      ...session,
      schema: {
        operationId: 'user.pushTokens.delete',
        summary: 'Unregister a device push token (idempotent)',
        description:
          'Session tokens only. The token goes in a JSON body. 204 also when the user had no such token; ' +
          'another user’s token is never touched.',
        body: DeletePushTokenBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await pushTokens.remove(principalOf(request), request.body.token);
      return reply.code(204).send(null);
    },
  );
}
