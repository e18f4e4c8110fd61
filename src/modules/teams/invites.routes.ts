import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../shared/schemas.ts';
import { conflictResponse } from './conflict-response.ts';
import {
  CreateInviteBody,
  DeclinedInvite,
  InvitePage,
  InviteParams,
  InvitesQuery,
  InviteTokenParams,
  IssuedInvite,
  OwnInviteParams,
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
        summary: 'Pending invites (neither accepted nor expired) (owner or admin)',
        description:
          'Session tokens only; owners and admins (403 `forbidden` for members). Items carry no token: tokens ' +
          'are kept hashed and answered only by create and resend. Changes nothing.',
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
          'Session tokens only; owners and admins (403 `forbidden` for members, and for an admin inviting an ' +
          'admin: `role` (extension) may be admin only for owners). The invitation is mailed to the address ' +
          'with its accept link (who invited, the team, the role, the expiry); the answer carries the same ' +
          '`token`, shown this once. Records an `invite.created` event: an account that has the address, ' +
          'verified, gets a `team_invite` notification and finds the invite in its inbox. ' +
          '409 `conflict` when the address is already a member, already has a pending invite, or the plan has ' +
          'no seat left (members and pending invites count). ' +
          'The address is stored and matched normalised (NFKC, case-folded), like account e-mails.',
        params: IdParams,
        body: CreateInviteBody,
        response: {
          201: IssuedInvite,
          ...conflictResponse('Already a member, an invite is already pending, or no seat left on the plan'),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await invites.create(principalOf(request), request.params.id, request.body)),
  );

  app.post(
    '/api/v1/teams/:id/invites/:inviteId/resend',
    {
      config: { auth: auth.session, extension: true },
      schema: {
        operationId: 'teams.invites.resend',
        summary: 'Mail a pending invite again, with a new token (owner or admin)',
        description:
          'Session tokens only; owners and admins (403 `forbidden` for members). The invite gets a new token ' +
          'and a new 7-day expiry and is mailed again; the link mailed before stops working. Records an ' +
          '`invite.resent` event. 404 for an invite of another team, 409 `conflict` when it was answered or ' +
          'has expired, 429 `rate_limited` (Retry-After) past 3 resends of one invite or 30 of the team per hour.',
        params: InviteParams,
        response: {
          200: IssuedInvite,
          ...conflictResponse('Invite already answered or expired'),
          429: errorResponse('rate_limited: too many resends of the invite or the team; see Retry-After'),
        },
      },
    },
    async (request) => invites.resend(principalOf(request), request.params.id, request.params.inviteId),
  );

  app.delete(
    '/api/v1/teams/:id/invites/:inviteId',
    {
      ...session,
      schema: {
        operationId: 'teams.invites.delete',
        summary: 'Withdraw an invite that was not accepted (owner or admin)',
        description:
          'Session tokens only; owners and admins (403 `forbidden` for members). The invite (pending, declined ' +
          'or expired) is deleted: its token stops working and a pending one frees its seat. 404 for an unknown ' +
          'invite, one of another team, or one already accepted.',
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
          'Session tokens only (an API key gets 403 `session_required`); the token in the path is the proof, ' +
          "so the address need not be verified. The caller joins the team with the invite's role and gets the " +
          'team; the invite is used up. 404 for an unknown token; 403 `forbidden` when you are signed in with ' +
          'another e-mail address (addresses compared normalised: case and Unicode variants are the same ' +
          'address); 409 `conflict` when the invite was already used, declined or has expired, when you are ' +
          'already a member, or when the plan has no seat left.',
        params: InviteTokenParams,
        response: {
          200: Team,
          ...conflictResponse('Invite already used or expired, already a member, or no seat left'),
        },
      },
    },
    async (request) => invites.accept(principalOf(request), { token: request.params.token }),
  );

  app.post(
    '/api/v1/invites/:token/decline',
    {
      config: { auth: auth.session, extension: true, pathToken: 'token' },
      schema: {
        operationId: 'invites.decline',
        summary: 'Turn down an invite sent to your e-mail address',
        description:
          'Session tokens only. The invite leaves your inbox and stops holding a seat; the team may invite you ' +
          'again. Records an `invite.declined` event. The same answers as accept: 404 for an unknown token, ' +
          '403 `forbidden` for another address, 409 `conflict` when the invite was already accepted, declined ' +
          'or has expired.',
        params: InviteTokenParams,
        response: { 200: DeclinedInvite, ...conflictResponse('Invite already answered or expired') },
      },
    },
    async (request) => invites.decline(principalOf(request), { token: request.params.token }),
  );

  app.post(
    '/api/v1/user/invites/:inviteId/accept',
    {
      config: { auth: auth.session, extension: true },
      schema: {
        operationId: 'invites.acceptById',
        summary: 'Accept an invite sent to your verified e-mail address, by its id (as the inbox lists it)',
        description:
          'Session tokens only. Without the mailed token the address is the only proof, so it must be ' +
          'verified: 403 `email_unverified` otherwise (accept with the token of the mail instead). The caller ' +
          "joins the team with the invite's role and gets the team. 404 for an unknown invite or one sent to " +
          'another address; 409 `conflict` as for the token route (used, declined or expired, already a ' +
          'member, no seat left).',
        params: OwnInviteParams,
        response: {
          200: Team,
          ...conflictResponse('Invite already used or expired, already a member, or no seat left'),
        },
      },
    },
    async (request) => invites.accept(principalOf(request), { inviteId: request.params.inviteId }),
  );

  app.post(
    '/api/v1/user/invites/:inviteId/decline',
    {
      config: { auth: auth.session, extension: true },
      schema: {
        operationId: 'invites.declineById',
        summary: 'Turn down an invite sent to your verified e-mail address, by its id',
        description:
          "Session tokens only; the invite must have been sent to the caller's verified address (403 " +
          '`email_unverified` otherwise, 404 for an unknown invite or another address). The invite leaves the ' +
          'inbox and frees its seat; records an `invite.declined` event. 409 `conflict` when it was already ' +
          'accepted, declined or has expired.',
        params: OwnInviteParams,
        response: { 200: DeclinedInvite, ...conflictResponse('Invite already answered or expired') },
      },
    },
    async (request) => invites.decline(principalOf(request), { inviteId: request.params.inviteId }),
  );
}
