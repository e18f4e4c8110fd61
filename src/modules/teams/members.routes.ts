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
          'Demoting someone to `member` revokes, at once, the team API keys they created; promoting them again ' +
          'does not bring those keys back.',
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
        description: 'The team API keys the member created are revoked at once, with the membership.',
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
        params: IdParams,
        querystring: MembersQuery,
        response: { 200: InvitablePage },
      },
    },
    async (request) => members.invitable(principalOf(request), request.params.id, pageOf(request.query)),
  );
}
