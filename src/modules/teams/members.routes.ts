import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { countedPageOf, pageOf } from '../../shared/pagination.ts';
import { IdParams, NoContent } from '../../shared/schemas.ts';
import { conflictResponse } from './conflict-response.ts';
import {
  DirectoryQuery,
  InvitablePage,
  Member,
  MemberListPage,
  MemberListQuery,
  MemberPage,
  MemberParams,
  MembersQuery,
  UpdateMemberBody,
} from './members.schemas.ts';

const session = { config: { auth: auth.session } } as const;
const extension = { config: { auth: auth.session, extension: true } } as const;

export async function membersRoutes(app: App) {
  const members = app.services.teamMembers;

  app.get(
    '/api/v1/teams/directory',
    {
      ...session,
      schema: {
        operationId: 'teams.directory',
        summary: "The team's people directory, alphabetically: name, e-mail, role, joined date",
        description:
          'Session tokens only; any member of `teamId` (404 for a team the caller does not belong to). Sorted by ' +
          'name (people without one by e-mail). Changes nothing.',
        querystring: DirectoryQuery,
        response: { 200: MemberPage },
      },
    },
    async (request) => {
      const { teamId, limit, cursor } = request.query;
      return members.directory(principalOf(request), teamId, { limit: limit ?? 50, cursor });
    },
  );

  app.get(
    '/api/v1/teams/:id/members',
    {
      ...session,
      schema: {
        operationId: 'teams.members.list',
        summary: 'Members with their roles, in the order they joined',
        description: 'Session tokens only; any member of the team (404 otherwise). Changes nothing.',
        params: IdParams,
        querystring: MemberListQuery,
        response: { 200: MemberListPage },
      },
    },
    async (request) => members.list(principalOf(request), request.params.id, countedPageOf(request.query)),
  );

  app.patch(
    '/api/v1/teams/:id/members/:userId',
    {
      ...extension,
      schema: {
        operationId: 'teams.members.update',
        summary:
          "Change a member's role (owner or admin; only owners make or unmake owners; the last owner stays)",
        description:
          'Session tokens only; owners and admins (403 `forbidden` for members); only an owner makes or unmakes ' +
          'owners (403). Setting the role a member already has changes nothing. Demoting an owner or admin to ' +
          '`member` ends at once what the role gave: the team API keys they created are revoked, webhook ' +
          'endpoints they registered are paused (owners and admins are notified), and their open invites are ' +
          'withdrawn; promoting them again brings none of it back. 404 when the user is not a member; 409 ' +
          '`conflict` when demoting the last owner.',
        params: MemberParams,
        body: UpdateMemberBody,
        response: { 200: Member, ...conflictResponse('The last owner cannot be demoted') },
      },
    },
    async (request) =>
      members.updateRole(principalOf(request), request.params.id, request.params.userId, request.body.role),
  );

  app.delete(
    '/api/v1/teams/:id/members/:userId',
    {
      ...extension,
      schema: {
        operationId: 'teams.members.remove',
        summary: 'Remove a member (owner or admin), or leave the team yourself; the last owner cannot leave',
        description:
          'Session tokens only. Owners and admins remove others (only an owner removes an owner; 403 ' +
          '`forbidden` otherwise); any member may remove themselves (leave). Everything the membership gave ' +
          'ends in the same transaction: the team API keys the member created are revoked, webhook endpoints ' +
          "they registered are paused, their open invites are withdrawn, review requests of the team's tracks " +
          'waiting on them are withdrawn (unless another team of theirs holds the track), their studio session ' +
          'invitations end, and join links and calendar feeds handed to them stop working. ' +
          '404 when the user is not a member; 409 `conflict` when the last owner would leave.',
        params: MemberParams,
        response: { 204: NoContent, ...conflictResponse('The last owner cannot leave') },
      },
    },
    async (request, reply) => {
      await members.remove(principalOf(request), request.params.id, request.params.userId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/teams/:id/invitable-members',
    {
      ...session,
      schema: {
        operationId: 'teams.invitableMembers.list',
        summary: 'People who share another team with you but are not in this one, for an invite picker',
        description:
          'Session tokens only; any member of the team (404 otherwise). Sorted by e-mail. Changes nothing; ' +
          'invite one with POST /teams/{id}/invites.',
        params: IdParams,
        querystring: MembersQuery,
        response: { 200: InvitablePage },
      },
    },
    async (request) => members.invitable(principalOf(request), request.params.id, pageOf(request.query)),
  );
}
