import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { errorResponse, NoContent } from '../../shared/schemas.ts';
import { ChangeEmailBody, ChangePasswordBody, PendingEmail } from './users.schemas.ts';

const session = { config: { auth: auth.session } } as const;

/** `/api/v1/user/email` and `/api/v1/user/password`: changing how the user signs in. */
export async function credentialsRoutes(app: App) {
  const { emailVerification, passwordReset } = app.services;

  app.post(
    '/api/v1/user/email',
    {
      ...session,
      schema: {
        operationId: 'user.email.change',
        summary: 'Ask to move the account to another e-mail address',
        description:
          'Session tokens only (an API key gets 403 `session_required`). ' +
          'Needs the current password (400 validation_failed when wrong; failures are counted per user, 429 ' +
          'past ten an hour). Mails a `/verify-email?token=` link to the new address; the account moves there ' +
          'only when that token is sent to POST /auth/verify-email, which also tells the former address. ' +
          'Until then sign-in uses the current address. A newer request replaces the pending one. 409 when ' +
          'another account has the address (checked again at confirmation), when it is already the ' +
          'account’s, or when the account has no password (its identity provider owns the address). At most ' +
          'three requests an hour (429).',
        body: ChangeEmailBody,
        response: {
          202: PendingEmail,
          409: errorResponse(
            'conflict: another account has the address, it is already the account’s, or the account has no ' +
              'password (its identity provider owns the address)',
          ),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await emailVerification.requestChange(principalOf(request), request.body)),
  );

  app.post(
    '/api/v1/user/password',
    {
      ...session,
      schema: {
        operationId: 'user.password.change',
        summary: 'Change the password',
        description:
          'Session tokens only. ' +
          'Needs the current password (400 validation_failed when wrong; failures are counted per user, 429 ' +
          'past ten an hour); the new one follows the sign-up rules. Every other session of the user ends ' +
          'at once (this one stays signed in) and a notice is mailed to the account’s address. 409 for an ' +
          'account without a password (it signs in through its identity provider; a password reset sets one).',
        body: ChangePasswordBody,
        response: {
          204: NoContent,
          409: errorResponse(
            'conflict: the account has no password (it signs in through its identity provider)',
          ),
        },
      },
    },
    async (request, reply) => {
      await passwordReset.change(principalOf(request), request.body);
      return reply.code(204).send(null);
    },
  );
}
