import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../shared/schemas.ts';
import {
  AddTeamBody,
  CreateOrganisationBody,
  ListQuery,
  Organisation,
  OrganisationPage,
  OrganisationTeam,
  OrganisationTeamPage,
  TeamParams,
  UpdateOrganisationBody,
} from './organisations.schemas.ts';
import { SESSION_ONLY, session, sessionExtension } from './route-auth.ts';

/** Organisations and the teams they group. */
export async function organisationsRoutes(app: App) {
  const { organisations, teams } = app.services.organisations;

  app.get(
    '/api/v1/organisations/',
    {
      ...session,
      schema: {
        operationId: 'organisations.list',
        summary: 'The organisations the caller belongs to or reads through one of their teams, by name',
        description:
          `${SESSION_ONLY} Lists the organisations the caller is a member of (any role) and those that group ` +
          "one of the caller's teams. `role` is the caller's role in the organisation; null when the caller " +
          'only belongs to one of its teams. Ordered by name (case-insensitive), then id; keyset pages.',
        querystring: ListQuery,
        response: { 200: OrganisationPage },
      },
    },
    async (request) => organisations.list(principalOf(request), pageOf(request.query)),
  );

  app.post(
    '/api/v1/organisations/',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.create',
        summary: 'Create an organisation; the caller becomes its owner',
        description:
          `${SESSION_ONLY} Any signed-in user may create one; they become its only member, as owner. It ` +
          'starts with no teams, members, buildings or camps. `name` is trimmed (1 to 200 characters, not ' +
          'only spaces; else 400).',
        body: CreateOrganisationBody,
        response: { 201: Organisation },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await organisations.create(principalOf(request), request.body)),
  );

  app.get(
    '/api/v1/organisations/:id',
    {
      ...session,
      schema: {
        operationId: 'organisations.get',
        summary: 'One organisation',
        description:
          `${SESSION_ONLY} Readable by its members (any role) and by the members of its teams; anyone else ` +
          "gets 404, as for an organisation that does not exist. `role` is the caller's role (null for a " +
          'member of one of its teams).',
        params: IdParams,
        response: { 200: Organisation },
      },
    },
    async (request) => organisations.get(principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/organisations/:id',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.update',
        summary: 'Rename an organisation (owners)',
        description:
          `${SESSION_ONLY} Owners only: anyone else who reads it gets 403 \`forbidden\`; someone who ` +
          'cannot read it gets 404. Records `organisation.renamed` in the event log (its activity). No webhook.',
        params: IdParams,
        body: UpdateOrganisationBody,
        response: { 200: Organisation },
      },
    },
    async (request) => organisations.rename(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/organisations/:id',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.delete',
        summary: 'Delete an organisation with its buildings, studios, camps and camp files (owners)',
        description:
          `${SESSION_ONLY} Owners only (403 \`forbidden\` for anyone else who reads it, 404 for anyone who ` +
          'cannot read it). Deletes its buildings and studios (sessions that booked them keep their times, without a ' +
          "studio), its camps with their answers, listening queues and shared files (the files' bytes too), " +
          'its invitations and webhook endpoints. Its teams stay, outside any organisation. Records ' +
          '`organisation.deleted` in the event log.',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await organisations.remove(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/organisations/:id/teams',
    {
      ...session,
      schema: {
        operationId: 'organisations.teams.list',
        summary: "The organisation's teams, by name",
        description:
          `${SESSION_ONLY} Readable by its members and by the members of its teams (anyone else: 404). ` +
          'Ordered by name (case-insensitive), then id; keyset pages.',
        params: IdParams,
        querystring: ListQuery,
        response: { 200: OrganisationTeamPage },
      },
    },
    async (request) => teams.list(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    '/api/v1/organisations/:id/teams',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.teams.add',
        summary: 'Add a team to the organisation',
        description:
          `${SESSION_ONLY} The caller must be an owner or admin of the organisation and of the team (403 ` +
          '`forbidden` otherwise; a team the caller is not in is 404). A team belongs to one organisation at ' +
          'most: a team already in one (this or another) is 409 `conflict`. Its members then read the ' +
          "organisation, and its sessions appear in the organisation's schedule. Records " +
          '`organisation.team_added` in the event log.',
        params: IdParams,
        body: AddTeamBody,
        response: {
          201: OrganisationTeam,
          409: errorResponse('The team is already in this or another organisation'),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await teams.add(principalOf(request), request.params.id, request.body.teamId)),
  );

  app.delete(
    '/api/v1/organisations/:id/teams/:teamId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'organisations.teams.remove',
        summary: 'Take a team out of the organisation',
        description:
          `${SESSION_ONLY} By an owner or admin of the organisation, or of the team (403 \`forbidden\` for ` +
          'anyone else who reads the organisation; 404 for a team not in it). Its members no longer read the ' +
          'organisation through it. What the team submitted to camps stays. Records ' +
          '`organisation.team_removed` in the event log.',
        params: TeamParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await teams.remove(principalOf(request), request.params.id, request.params.teamId);
      return reply.code(204).send(null);
    },
  );
}
