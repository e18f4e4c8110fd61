import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { IdParams, NoContent } from '../../shared/schemas.ts';
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
import { session, sessionExtension } from './route-auth.ts';

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
          "`role` is the caller's role in the organisation; null when the caller only belongs to one of its teams.",
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
          'Readable by its members (any role) and by the members of its teams; anyone else gets 404.',
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
        description: 'Its teams stay, outside any organisation.',
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
          'The caller must be an owner or admin of the organisation and of the team. A team belongs to one ' +
          'organisation at most: a team already in one (this or another) is 409.',
        params: IdParams,
        body: AddTeamBody,
        response: { 201: OrganisationTeam },
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
          'By an owner or admin of the organisation, or of the team. What the team submitted to camps stays.',
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
