import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { countedPageOf } from '../../shared/pagination.ts';
import { IdParams, NoContent } from '../../shared/schemas.ts';
import {
  MemberParams,
  MembersQuery,
  OrganisationMember,
  OrganisationMemberPage,
  UpdateMemberBody,
} from './members.schemas.ts';
import { session, sessionExtension } from './route-auth.ts';

/**
 * The members of an organisation (people with a role in it, beside the members of its teams). People join by
 * invitation: `POST .../members` invites (see the invitations routes).
 */
export async function organisationMembersRoutes(app: App) {
  const { members } = app.services.organisations;

  app.get(
    '/api/v1/organisations/:id/members',
    {
      ...session,
      schema: {
        operationId: 'organisations.members.list',
        summary: "The organisation's members with their roles, in the order they joined",
        description: 'Members of its teams read the organisation too, but are not listed here.',
        params: IdParams,
        querystring: MembersQuery,
        response: { 200: OrganisationMemberPage },
      },
    },
    async (request) => members.list(principalOf(request), request.params.id, countedPageOf(request.query)),
  );

  app.patch(
    '/api/v1/organisations/:id/members/:userId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.members.update',
        summary: "Change a member's role (owners and admins; only owners make or unmake owners)",
        description: 'The last owner cannot be demoted (409); an id that is not a member is 404.',
        params: MemberParams,
        body: UpdateMemberBody,
        response: { 200: OrganisationMember },
      },
    },
    async (request) =>
      members.updateRole(principalOf(request), request.params.id, request.params.userId, request.body.role),
  );

  app.delete(
    '/api/v1/organisations/:id/members/:userId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.members.remove',
        summary: 'Remove a member, or leave the organisation (own user id)',
        description:
          'Owners and admins remove members (only owners remove owners); anyone may leave. The last owner ' +
          'cannot leave or be removed (409).',
        params: MemberParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await members.remove(principalOf(request), request.params.id, request.params.userId);
      return reply.code(204).send(null);
    },
  );
}
