import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../../shared/schemas.ts';
import { read, write } from '../route-auth.ts';
import { OWNER_ONLY } from '../share-rules.ts';
import {
  Collaborator,
  CollaboratorGroups,
  CollaboratorListQuery,
  CollaboratorPage,
  CollaboratorParams,
  CreateCollaboratorBody,
} from './collaborators.schemas.ts';

/** Collaborators of a track and their groups by role. */
export async function collaboratorsRoutes(app: App) {
  const collaborators = app.services.trackCollaborators;

  app.get(
    '/api/v1/tracks/:id/collaborators',
    {
      ...read,
      schema: {
        operationId: 'tracks.collaborators.list',
        summary: 'Collaborators of a track with their roles, in the order they were added',
        params: IdParams,
        querystring: CollaboratorListQuery,
        response: { 200: CollaboratorPage },
      },
    },
    async (request) => collaborators.list(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.post(
    '/api/v1/tracks/:id/collaborators',
    {
      ...write,
      schema: {
        operationId: 'tracks.collaborators.create',
        summary: 'Add a collaborator with roles: a team member (userId) or a named outside person',
        description: OWNER_ONLY,
        params: IdParams,
        body: CreateCollaboratorBody,
        response: {
          201: Collaborator,
          409: errorResponse('The user (userId) is a collaborator of the track already'),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await collaborators.add(principalOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/api/v1/tracks/:id/collaborators/:collaboratorId',
    {
      ...write,
      schema: {
        operationId: 'tracks.collaborators.delete',
        summary: 'Remove a collaborator from a track',
        description: OWNER_ONLY,
        params: CollaboratorParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await collaborators.remove(principalOf(request), request.params.id, request.params.collaboratorId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/tracks/:id/collaborator-groups',
    {
      ...read,
      schema: {
        operationId: 'tracks.collaboratorGroups.list',
        summary: 'Collaborators of a track grouped by role',
        params: IdParams,
        querystring: CollaboratorListQuery,
        response: { 200: CollaboratorGroups },
      },
    },
    async (request) => collaborators.groups(principalOf(request), request.params.id, pageOf(request.query)),
  );
}
