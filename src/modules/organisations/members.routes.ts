import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { countedPageOf } from '../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../shared/schemas.ts';
import {
  MemberParams,
  MembersQuery,
  OrganisationMember,
  OrganisationMemberPage,
  UpdateMemberBody,
} from './members.schemas.ts';
import { SESSION_ONLY, session, sessionExtension } from './route-auth.ts';

const PAUSES =
  'the webhook endpoints of the organisation that the person registered are paused (disabled until an ' +
  'admin enables them again).';

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
        description:
          `${SESSION_ONLY} Readable by its members and by the members of its teams (anyone else: 404). Members ` +
          'of its teams read the organisation too, but are not listed here. Keyset pages.',
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
        description:
          `${SESSION_ONLY} Owners and admins of the organisation (403 \`forbidden\` for its other readers); only owners ` +
          'give or take the owner role (403). The last owner cannot be demoted (409 `conflict`); an id that ' +
          `is not a member is 404. Setting the role a member has already changes nothing. Demoting an owner or ` +
          `admin to member: ${PAUSES} Records \`organisation.member_role_changed\` in the event log.`,
        params: MemberParams,
        body: UpdateMemberBody,
        response: {
          200: OrganisationMember,
          409: errorResponse('The last owner cannot be demoted'),
        },
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
          `${SESSION_ONLY} Owners and admins remove members (403 \`forbidden\` for its other readers; only owners ` +
          'remove owners); any member may leave with their own user id. The last owner cannot leave or be ' +
          `removed (409 \`conflict\`); an id that is not a member is 404. Once gone, ${PAUSES} Records ` +
          '`organisation.member_removed` in the event log.',
        params: MemberParams,
        response: {
          204: NoContent,
          409: errorResponse('The last owner cannot leave or be removed'),
        },
      },
    },
    async (request, reply) => {
      await members.remove(principalOf(request), request.params.id, request.params.userId);
      return reply.code(204).send(null);
    },
  );
}
