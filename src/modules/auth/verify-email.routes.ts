import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { errorResponse, NoContent } from '../../shared/schemas.ts';
import { TokenBody, VerifiedEmail } from './auth.schemas.ts';
import { VERIFICATION_MAILS_PER_HOUR, VERIFY_EMAIL_TTL_HOURS } from './email-verification.ts';

/** `/api/v1/auth/verify-email*`: proving an address by the link mailed to it. */
export async function verifyEmailRoutes(app: App) {
  const verification = app.services.emailVerification;

  app.post(
    '/api/v1/auth/verify-email',
    {
      config: { auth: auth.anonymous },
      schema: {
        operationId: 'auth.verifyEmail',
        summary: 'Verify an address with the token of its mailed link',
        description:
          'Anonymous (no session needed: the token is the capability). ' +
          'The token of a `/verify-email?token=` link: the one mailed at sign-up (or by /auth/verify-email/resend) ' +
          'marks the address verified; the one mailed by POST /user/email moves the account to the new address ' +
          '(409 `conflict` when another account has it by then) and sends a notice to the former one. ' +
          `Each token works once, for ${VERIFY_EMAIL_TTL_HOURS} hours, and only ` +
          'while it is the newest of its kind; a used, expired, replaced or unknown token gets 400 `invalid_token`.',
        body: TokenBody,
        response: {
          200: VerifiedEmail,
          400: errorResponse(
            'validation_failed, invalid_json, or invalid_token (used, expired, replaced or unknown)',
          ),
          409: errorResponse('conflict: another account has the new address by now'),
        },
      },
    },
    async (request) => verification.verify(request.body.token),
  );

  app.post(
    '/api/v1/auth/verify-email/resend',
    {
      config: { auth: auth.session },
      schema: {
        operationId: 'auth.verifyEmail.resend',
        summary: 'Mail a fresh verification link to the signed-in user’s address',
        description:
          'Session tokens only (an API key gets 403 `session_required`). Mails a new `/verify-email?token=` ' +
          "link to the account's address; earlier links stop working. 409 `conflict` when the address is " +
          'already verified; past ' +
          `${VERIFICATION_MAILS_PER_HOUR} requests an hour, 429 with Retry-After.`,
        response: {
          204: NoContent,
          409: errorResponse('conflict: the address is already verified'),
        },
      },
    },
    async (request, reply) => {
      await verification.resend(principalOf(request));
      return reply.code(204).send(null);
    },
  );
}
