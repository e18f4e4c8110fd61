import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { errorResponse } from '../../shared/schemas.ts';
import { PURGE_AFTER_DAYS } from './account.service.ts';
import { ACCOUNT_DELETION_PHRASE, DeleteAccountBody, DeletionStatus } from './users.schemas.ts';

const session = { config: { auth: auth.session } } as const;

export async function accountRoutes(app: App) {
  const account = app.services.users.account;

  app.get(
    '/api/v1/user/account/deletion-status',
    {
      ...session,
      schema: {
        operationId: 'user.account.deletionStatus',
        summary: 'Whether the account is scheduled for deletion',
        description:
          'Session tokens only (an API key gets 403 `session_required`). `active`, or `scheduled` with the time ' +
          'of the request and the purge date once deletion was requested. Changes nothing.',
        response: { 200: DeletionStatus },
      },
    },
    async (request) => account.status(principalOf(request)),
  );

  app.delete(
    '/api/v1/user/account',
    {
      ...session,
      schema: {
        operationId: 'user.account.delete',
        summary: 'Request deletion of the account',
        description:
          'Session tokens only. ' +
          `\`confirmation\` must be exactly "${ACCOUNT_DELETION_PHRASE}" (400 validation_failed otherwise). The user leaves every team; teams where ` +
          'they are the only member are deleted with the request, and the team API keys they created are revoked. ' +
          'They leave every organisation too; one they are alone in that holds no team is deleted. While the user ' +
          'is the only owner of a team that has other members, or of an organisation with other members or teams, ' +
          'the answer is 409, naming those in `details`: hand ownership over or delete them first. On success every session ends at once (the token used here no longer works), later sign-ins get ' +
          `401. Within an hour of \`purgeAfter\` (${PURGE_AFTER_DAYS} days after the request) the account is deleted: ` +
          'what the user wrote in teams (tracks, comments, activity) stays without their name, and the e-mail ' +
          'address can sign up again.',
        body: DeleteAccountBody,
        response: {
          202: DeletionStatus,
          409: errorResponse(
            'conflict: the user is the only owner of a team with other members or of an organisation with ' +
              'other members or teams (named in details), or a team they are alone in still holds data',
          ),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await account.requestDeletion(principalOf(request), request.body.confirmation)),
  );
}
