import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse } from '../../../shared/schemas.ts';
import { read, WHO_READS, WHO_WRITES, write } from '../route-auth.ts';
import { CreateGroupBody, Group, GroupListQuery, GroupPage } from './groups.schemas.ts';

/** Groups of a team's contacts: list and create. */
export async function contactGroupsRoutes(app: App) {
  const groups = app.services.contactGroups;

  app.get(
    '/api/v1/contacts/groups',
    {
      ...read,
      schema: {
        operationId: 'contacts.groups.list',
        summary: "List a team's contact groups, alphabetically, with member counts",
        description: `${WHO_READS} Ordered by name (case-insensitive), then id; keyset pages.`,
        querystring: GroupListQuery,
        response: { 200: GroupPage },
      },
    },
    async (request) => {
      const { limit, cursor, teamId } = request.query;
      return groups.list(principalOf(request), { teamId, ...pageOf({ limit, cursor }) });
    },
  );

  app.post(
    '/api/v1/contacts/groups',
    {
      ...write,
      schema: {
        operationId: 'contacts.groups.create',
        summary: 'Create a contact group',
        description:
          `${WHO_WRITES} The name is unique in the team, case-insensitively (409 \`conflict\` otherwise). ` +
          'Contacts join groups through their groupIds. Records `contact_group.created` in the event log.',
        body: CreateGroupBody,
        response: {
          201: Group,
          409: errorResponse('The team already has a group of this name (ignoring case)'),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await groups.create(principalOf(request), request.body)),
  );
}
