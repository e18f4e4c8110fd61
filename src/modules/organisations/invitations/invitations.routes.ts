import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../../shared/schemas.ts';
import { Organisation } from '../organisations.schemas.ts';
import { SESSION_ONLY, sessionExtension, sessionTokenExtension } from '../route-auth.ts';
import {
  CreateInvitationBody,
  DeclinedInvitation,
  InvitationParams,
  InvitationsQuery,
  InvitationTokenParams,
  IssuedOrganisationInvitation,
  OrganisationInvitationPage,
  OwnInvitationParams,
} from './invitations.schemas.ts';

const CREATE_DESCRIPTION =
  `${SESSION_ONLY} Owners and admins of the organisation (403 \`forbidden\` for its other readers; 404 for anyone ` +
  'who cannot read it). Invites a person by `userId` or `email` (exactly one of them, else 400) as `role` ' +
  '(default member; only owners invite owners, else 403). The answer is the same whether or not an account ' +
  'has that id or address, and names nobody: ' +
  'the person joins only by accepting (`POST /api/v1/organisation-invitations/{token}/accept`). An invitation ' +
  'to an address is mailed there with its accept link; the answer carries the same `token`, shown this once. ' +
  "Single use; expires in 7 days; it waits in the invited person's inbox (`GET /api/v1/inbox`). 409 `conflict` " +
  'when a member already has that id or address, or an invitation to them is pending.';

/** Invitations to an organisation: made and withdrawn by its owners and admins, answered by the invited. */
export async function organisationInvitationsRoutes(app: App) {
  const { invitations } = app.services.organisations;

  app.get(
    '/api/v1/organisations/:id/invitations',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.invitations.list',
        summary: 'Pending invitations (neither answered nor expired) (owners and admins)',
        description:
          `${SESSION_ONLY} Owners and admins of the organisation (403 \`forbidden\` for its other readers; 404 for ` +
          'anyone who cannot read it). Items carry no token: tokens are kept hashed and answered only by ' +
          'create and resend. Oldest first; keyset pages.',
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
            201: IssuedOrganisationInvitation,
            409: errorResponse('Already a member, or an invitation to them is pending'),
          },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await invitations.create(principalOf(request), request.params.id, request.body)),
    );

  app.post(
    '/api/v1/organisations/:id/invitations/:invitationId/resend',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.invitations.resend',
        summary: 'Mail a pending invitation to an address again, with a new token (owners and admins)',
        description:
          `${SESSION_ONLY} Owners and admins of the organisation (403 \`forbidden\` for its other readers). The ` +
          'invitation gets a new token and a new 7-day expiry, and is mailed again; the link mailed before ' +
          'stops working. 404 ' +
          'for an invitation of another organisation; 409 when it was answered, has expired or was sent to a ' +
          'user id; 429 (Retry-After) past 3 resends of one invitation or 30 of the organisation per hour.',
        params: InvitationParams,
        response: {
          200: IssuedOrganisationInvitation,
          409: errorResponse('Answered, expired, or sent to a user id'),
          429: errorResponse('Too many resends; see Retry-After'),
        },
      },
    },
    async (request) =>
      invitations.resend(principalOf(request), request.params.id, request.params.invitationId),
  );

  app.delete(
    '/api/v1/organisations/:id/invitations/:invitationId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.invitations.delete',
        summary: 'Withdraw an invitation that was not accepted (owners and admins)',
        description:
          `${SESSION_ONLY} Owners and admins of the organisation (403 \`forbidden\` for its other readers). Its token ` +
          "stops working at once and it leaves the invited person's inbox. 404 for an invitation of another " +
          'organisation, or one already accepted.',
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
          `${SESSION_ONLY} Signed in as the user it was sent to, or with the e-mail address it was sent to ` +
          '(compared normalised; holding the token proves the address, so it need not be verified). The ' +
          'caller joins with its role (records `organisation.member_added`) and gets the organisation. 404 for ' +
          'an unknown token; 403 forbidden for anyone else; 409 conflict when it was ' +
          'already answered or has expired, you are already a member, or whoever sent it no longer holds ' +
          'the role it gives.',
        params: InvitationTokenParams,
        response: {
          200: Organisation,
          409: errorResponse('Already answered or expired, already a member, or no longer valid'),
        },
      },
    },
    async (request) => invitations.accept(principalOf(request), { token: request.params.token }),
  );

  app.post(
    '/api/v1/organisation-invitations/:token/decline',
    {
      ...sessionTokenExtension,
      schema: {
        operationId: 'organisationInvitations.decline',
        summary: 'Turn down an invitation sent to you',
        description:
          `${SESSION_ONLY} It leaves your inbox; the organisation may invite you again. The same answers as ` +
          'accept: 404, 403 ' +
          'forbidden for anyone it was not sent to, 409 conflict when already answered or expired.',
        params: InvitationTokenParams,
        response: { 200: DeclinedInvitation, 409: errorResponse('Already answered or expired') },
      },
    },
    async (request) => invitations.decline(principalOf(request), { token: request.params.token }),
  );

  app.post(
    '/api/v1/user/organisation-invitations/:invitationId/accept',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisationInvitations.acceptById',
        summary: 'Accept an invitation sent to you, by its id (as the inbox lists it)',
        description:
          `${SESSION_ONLY} For an invitation to your user id, or to your e-mail address once it is verified: ` +
          'without the ' +
          'token the address is the only proof, so an unverified one gets 403 `email_unverified` (accept ' +
          'with the token of the mail instead). 404 for an unknown invitation or one sent to someone else; ' +
          '409 as for the token route.',
        params: OwnInvitationParams,
        response: {
          200: Organisation,
          409: errorResponse('Already answered or expired, already a member, or no longer valid'),
        },
      },
    },
    async (request) =>
      invitations.accept(principalOf(request), { invitationId: request.params.invitationId }),
  );

  app.post(
    '/api/v1/user/organisation-invitations/:invitationId/decline',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisationInvitations.declineById',
        summary: 'Turn down an invitation sent to you, by its id',
        description: `${SESSION_ONLY} The same answers as accepting by id: 403 \`email_unverified\`, 404, 409.`,
        params: OwnInvitationParams,
        response: { 200: DeclinedInvitation, 409: errorResponse('Already answered or expired') },
      },
    },
    async (request) =>
      invitations.decline(principalOf(request), { invitationId: request.params.invitationId }),
  );
}
