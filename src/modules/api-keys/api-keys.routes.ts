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
        description:
          'Session tokens only (an API key gets 403 `session_required`); owners and admins (403 `forbidden` ' +
          'for members). Keys not revoked, newest first (expired keys stay listed: see `expiresAt`); the raw ' +
          'keys are never shown again. `createdBy` names the user who created each key (null when unknown).',
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
          'Session tokens only; owners and admins (403 `forbidden` for members). Answers 201 with the raw key ' +
          '(`key`), shown only here: send it as `Authorization: Bearer`. With it, every read of the team is ' +
          'allowed and writes need the matching scope (`tracks:write`, `albums:write`, `contacts:write`, ' +
          "`financials:write`, `webhooks:write`); requests of the team's keys share the plan's per-minute " +
          'budget. The key belongs to the team but answers for its creator: it is revoked at once when the ' +
          'creator leaves the team, is removed from it, is demoted below admin or deletes their account. ' +
          '`expiresAt` in the past is 400 validation_failed.',
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
        description:
          'Session tokens only; owners and admins (403 `forbidden` for members). The key gets 401 from its next ' +
          'request on; webhook endpoints it registered are paused (disabled until an owner or admin enables ' +
          "them again) and the team's owners and admins are notified. 404 for an unknown key, one of another " +
          'team, or one already revoked.',
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
