import type { App } from '../../app-types.ts';
import { auth } from '../../plugins/auth.ts';
import { errorResponse, NoContent } from '../../shared/schemas.ts';
import { PasswordResetAccepted, PasswordResetBody, PasswordResetConfirmBody } from './auth.schemas.ts';
import {
  PASSWORD_RESET_TTL_MINUTES,
  PASSWORD_RESETS_PER_CLIENT,
  PASSWORD_RESETS_PER_EMAIL,
} from './password-reset.ts';

const ACCEPTED = {
  status: 'accepted' as const,
  message: 'If an account uses this address, a link to reset its password is on its way',
};

/** `/api/v1/auth/password-reset*`: a new password by the link mailed to the account's address. */
export async function passwordResetRoutes(app: App) {
  const reset = app.services.passwordReset;

  app.post(
    '/api/v1/auth/password-reset',
    {
      config: { auth: auth.anonymous },
      schema: {
        operationId: 'auth.passwordReset',
        summary: 'Mail a password reset link',
        description:
          'Anonymous (no token). ' +
          'Always 202 with the same body, whether or not an account uses the address: the answer tells ' +
          'nothing about which addresses have accounts. When one does (in any form of the address, like ' +
          `sign-in), a \`/reset-password?token=\` link is mailed to it, working once for ${PASSWORD_RESET_TTL_MINUTES} ` +
          `minutes; a newer link replaces it. At most ${PASSWORD_RESETS_PER_EMAIL} links an hour go to one address ` +
          '(later requests get the same 202 and send nothing); past ' +
          `${PASSWORD_RESETS_PER_CLIENT} requests an hour from one client address, 429 with Retry-After.`,
        body: PasswordResetBody,
        response: {
          202: PasswordResetAccepted,
          429: errorResponse('rate_limited: too many requests from this client address; see Retry-After'),
        },
      },
    },
    async (request, reply) => {
      await reset.request(request.body, request.ip);
      return reply.code(202).send(ACCEPTED);
    },
  );

  app.post(
    '/api/v1/auth/password-reset/confirm',
    {
      config: { auth: auth.anonymous },
      schema: {
        operationId: 'auth.passwordReset.confirm',
        summary: 'Set a new password with the token of a reset link',
        description:
          'Anonymous (the token of the mailed link is the capability). ' +
          'The password follows the sign-up rules (400 validation_failed). On success (204) every session ' +
          'and refresh token of the account ends at once, on every server, the address counts as verified, ' +
          'and a notice goes to it; sign in with the new password. A used, expired, replaced or unknown ' +
          'token, or one sent to an address the account no longer has, gets 400 `invalid_token`.',
        body: PasswordResetConfirmBody,
        response: {
          204: NoContent,
          400: errorResponse(
            'validation_failed (also a weak password), invalid_json, or invalid_token (used, expired, replaced ' +
              'or unknown, or sent to an address the account no longer has)',
          ),
        },
      },
    },
    async (request, reply) => {
      await reset.confirm(request.body);
      return reply.code(204).send(null);
    },
  );
}
