import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../../shared/schemas.ts';
import { read, write } from '../route-auth.ts';
import { OWNER_ONLY, READERS, WRITERS } from '../share-rules.ts';
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
        description: `${READERS} Changes nothing.`,
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
        description:
          `${WRITERS} ${OWNER_ONLY} A userId that is not a member of the owning team is 400, and so is a ` +
          'body with neither name nor userId; the same user twice is 409. Roles are stored lower-cased, each ' +
          "once. Recorded in the team's activity as `collaborator.added` (no webhook).",
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
        description:
          `${WRITERS} ${OWNER_ONLY} A collaborator of another track is 404. Recorded in the team's ` +
          'activity as `collaborator.removed` (no webhook).',
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
        description: `${READERS} One answer, no pages. Changes nothing.`,
        params: IdParams,
        querystring: CollaboratorListQuery,
        response: { 200: CollaboratorGroups },
      },
    },
    async (request) => collaborators.groups(principalOf(request), request.params.id, pageOf(request.query)),
  );
}
