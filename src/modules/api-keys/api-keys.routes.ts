import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { IdParams, NoContent } from '../../shared/schemas.ts';
import {
  ApiKeyPage,
  ApiKeysQuery,
  CreateApiKeyBody,
  CreatedApiKey,
  TeamKeyParams,
} from './api-keys.schemas.ts';

const common = { config: { auth: auth.session, extension: true } } as const;

export async function apiKeysRoutes(app: App) {
  const keys = app.services.apiKeys;

  app.get(
    '/api/v1/teams/:id/api-keys',
    {
      ...common,
      schema: {
        operationId: 'teams.apiKeys.list',
        summary: "List the team's live API keys (owner or admin)",
        description: '`createdBy` names the user who created each key (null when unknown).',
        tags: ['api-keys'],
        params: IdParams,
        querystring: ApiKeysQuery,
        response: { 200: ApiKeyPage },
      },
    },
    async (request) =>
      keys.list(principalOf(request), request.params.id, request.query.limit ?? 50, request.query.cursor),
  );

  app.post(
    '/api/v1/teams/:id/api-keys',
    {
      ...common,
      schema: {
        operationId: 'teams.apiKeys.create',
        summary: 'Create an API key bound to the team; the raw key is returned once',
        description:
          'The key belongs to the team but answers for its creator: it is revoked at once when the creator ' +
          'leaves the team, is removed from it, is demoted below admin or deletes their account.',
        tags: ['api-keys'],
        params: IdParams,
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKey },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await keys.create(principalOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/api/v1/teams/:id/api-keys/:keyId',
    {
      ...common,
      schema: {
        operationId: 'teams.apiKeys.revoke',
        summary: 'Revoke an API key; it stops working on the next request',
        tags: ['api-keys'],
        params: TeamKeyParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await keys.revoke(principalOf(request), request.params.id, request.params.keyId);
      return reply.code(204).send(null);
    },
  );
}
