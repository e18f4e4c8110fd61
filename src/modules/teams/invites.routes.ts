import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { IdParams, NoContent } from '../../shared/schemas.ts';
import { conflictResponse } from './conflict-response.ts';
import {
  CreateInviteBody,
  DeclinedInvite,
  Invite,
  InvitePage,
  InviteParams,
  InvitesQuery,
  InviteTokenParams,
} from './invites.schemas.ts';
import { Team } from './teams.schemas.ts';

const session = { config: { auth: auth.session } } as const;

export async function invitesRoutes(app: App) {
  const invites = app.services.teamInvites;

  app.get(
    '/api/v1/teams/:id/invites',
    {
      ...session,
      schema: {
        operationId: 'teams.invites.list',
        summary: 'Pending invites (neither accepted nor expired), with their tokens (owner or admin)',
        params: IdParams,
        querystring: InvitesQuery,
        response: { 200: InvitePage },
      },
    },
    async (request) => invites.list(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    '/api/v1/teams/:id/invites',
    {
      ...session,
      schema: {
        operationId: 'teams.invites.create',
        summary: 'Invite an e-mail address (owner or admin); single use, expires in 7 days',
        description:
          '409 when the address is already a member, already has a pending invite, or the plan has no seat ' +
          'left (members and pending invites count). `role` (extension) may be admin only for owners. ' +
          'The address is stored and matched normalised (NFKC, case-folded), like account e-mails.',
        params: IdParams,
        body: CreateInviteBody,
        response: {
          201: Invite,
          ...conflictResponse('Already a member, an invite is already pending, or no seat left on the plan'),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await invites.create(principalOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/api/v1/teams/:id/invites/:inviteId',
    {
      ...session,
      schema: {
        operationId: 'teams.invites.delete',
        summary: 'Withdraw an invite that was not accepted (owner or admin)',
        params: InviteParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await invites.revoke(principalOf(request), request.params.id, request.params.inviteId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/invites/:token/accept',
    {
      config: { auth: auth.session, extension: true, pathToken: 'token' },
      schema: {
        operationId: 'invites.accept',
        summary: 'Accept an invite with the e-mail it was sent to; you join the team',
        description:
          '404 for an unknown token; 403 forbidden when you are signed in with another e-mail address ' +
          '(addresses compared normalised: case and Unicode variants are the same address); ' +
          '409 conflict when the invite was already used or has expired, when you are already a member, ' +
          'or when the plan has no seat left.',
        params: InviteTokenParams,
        response: {
          200: Team,
          ...conflictResponse('Invite already used or expired, already a member, or no seat left'),
        },
      },
    },
    async (request) => invites.accept(principalOf(request), request.params.token),
  );

  app.post(
    '/api/v1/invites/:token/decline',
    {
      config: { auth: auth.session, extension: true, pathToken: 'token' },
      schema: {
        operationId: 'invites.decline',
        summary: 'Turn down an invite sent to your e-mail address',
        description:
          'The invite leaves your inbox and stops holding a seat; the team may invite you again. The same ' +
          'answers as accept: 404 for an unknown token, 403 forbidden for another address, 409 conflict when ' +
          'the invite was already accepted, declined or has expired.',
        params: InviteTokenParams,
        response: { 200: DeclinedInvite, ...conflictResponse('Invite already answered or expired') },
      },
    },
    async (request) => invites.decline(principalOf(request), request.params.token),
  );
}
