import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../../shared/schemas.ts';
import { Organisation } from '../organisations.schemas.ts';
import { sessionExtension, sessionTokenExtension } from '../route-auth.ts';
import {
  CreateInvitationBody,
  DeclinedInvitation,
  InvitationParams,
  InvitationsQuery,
  InvitationTokenParams,
  OrganisationInvitation,
  OrganisationInvitationPage,
} from './invitations.schemas.ts';

const CREATE_DESCRIPTION =
  'Invites a person by `userId` or `email` (one of them) as `role` (default member; only owners invite ' +
  'owners). The answer is the same whether or not an account has that id or address, and names nobody: ' +
  'the person joins only by accepting (`POST /api/v1/organisation-invitations/{token}/accept`). Single use; ' +
  'expires in 7 days. 409 when a member already has that id or address, or an invitation to them is pending.';

/** Invitations to an organisation: made and withdrawn by its owners and admins, answered by the invited. */
export async function organisationInvitationsRoutes(app: App) {
  const { invitations } = app.services.organisations;

  app.get(
    '/api/v1/organisations/:id/invitations',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.invitations.list',
        summary: 'Pending invitations (neither answered nor expired), with their tokens (owners and admins)',
        params: IdParams,
        querystring: InvitationsQuery,
        response: { 200: OrganisationInvitationPage },
      },
    },
    async (request) => invitations.list(principalOf(request), request.params.id, pageOf(request.query)),
  );

  for (const [path, operationId, summary] of [
    ['/api/v1/organisations/:id/invitations', 'organisations.invitations.create', 'Invite a person'],
    [
      '/api/v1/organisations/:id/members',
      'organisations.members.add',
      'Invite a person (the same as POST .../invitations; nobody is added before they accept)',
    ],
  ] as const)
    app.post(
      path,
      {
        ...sessionExtension,
        schema: {
          operationId,
          summary: `${summary} (owners and admins)`,
          description: CREATE_DESCRIPTION,
          params: IdParams,
          body: CreateInvitationBody,
          response: {
            201: OrganisationInvitation,
            409: errorResponse('Already a member, or an invitation to them is pending'),
          },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await invitations.create(principalOf(request), request.params.id, request.body)),
    );

  app.delete(
    '/api/v1/organisations/:id/invitations/:invitationId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.invitations.delete',
        summary: 'Withdraw an invitation that was not accepted (owners and admins)',
        params: InvitationParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await invitations.revoke(principalOf(request), request.params.id, request.params.invitationId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/organisation-invitations/:token/accept',
    {
      ...sessionTokenExtension,
      schema: {
        operationId: 'organisationInvitations.accept',
        summary: 'Accept an invitation sent to you; you join the organisation with its role',
        description:
          'Signed in as the user it was sent to, or with the e-mail address it was sent to (compared ' +
          'normalised). 404 for an unknown token; 403 forbidden for anyone else; 409 conflict when it was ' +
          'already answered or has expired, you are already a member, or whoever sent it no longer holds ' +
          'the role it gives.',
        params: InvitationTokenParams,
        response: {
          200: Organisation,
          409: errorResponse('Already answered or expired, already a member, or no longer valid'),
        },
      },
    },
    async (request) => invitations.accept(principalOf(request), request.params.token),
  );

  app.post(
    '/api/v1/organisation-invitations/:token/decline',
    {
      ...sessionTokenExtension,
      schema: {
        operationId: 'organisationInvitations.decline',
        summary: 'Turn down an invitation sent to you',
        description:
          'It leaves your inbox; the organisation may invite you again. The same answers as accept: 404, 403 ' +
          'forbidden for anyone it was not sent to, 409 conflict when already answered or expired.',
        params: InvitationTokenParams,
        response: { 200: DeclinedInvitation, 409: errorResponse('Already answered or expired') },
      },
    },
    async (request) => invitations.decline(principalOf(request), request.params.token),
  );
}
