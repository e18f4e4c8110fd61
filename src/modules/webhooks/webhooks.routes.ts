import fp from 'fastify-plugin';
import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { errorResponse, IdParams, NoContent } from '../../shared/schemas.ts';
import {
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  DeliveriesQuery,
  EventTypeList,
  UpdatedWebhookEndpoint,
  UpdateWebhookBody,
  WebhookDeliveryPage,
  WebhookEndpointPage,
  WebhookListQuery,
  WebhookTestEvent,
} from './webhooks.schemas.ts';
import { MAX_ENDPOINTS_PER_TEAM } from './webhooks.service.ts';

const read = { config: { auth: auth.keyOrSession() } } as const;
const write = { config: { auth: auth.keyOrSession('webhooks:write') } } as const;
const tags = ['webhooks'];

const SIGNING =
  'Each delivery is a POST of `{type, timestamp, data}` signed as in Standard Webhooks: `webhook-id` (the event ' +
  'id, the same on every retry), `webhook-timestamp` (seconds), `webhook-signature` (`v1,<base64 HMAC-SHA256 of ' +
  '"id.timestamp.body">` with the bytes after `whsec_`). Any 2xx within 10 s succeeds; redirects are not ' +
  'followed. A failed attempt is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h later (8 attempts); an ' +
  'endpoint whose deliveries have all failed for 5 days is disabled.';

/** Webhook endpoints: the specification's six operations and the test extension. */
async function routes(app: App) {
  const webhooks = app.services.webhooks.service;

  app.get(
    '/api/v1/webhooks/event-types',
    {
      ...read,
      schema: {
        operationId: 'webhooks.eventTypes',
        summary: 'The event types an endpoint can subscribe to, each with an example payload and its schema',
        description:
          'Any session, or a team API key (no scope needed). Changes nothing. ' +
          'Each type with what it means, an example of the body an endpoint receives and the JSON Schema of its ' +
          '`data`. Events about a track, its versions, stems, comments, reviews and music-tool jobs go to the ' +
          'team that owns the track, never to teams it is shared with; album events to the album’s team.',
        tags,
        response: { 200: EventTypeList },
      },
    },
    async () => webhooks.eventTypes(),
  );

  app.get(
    '/api/v1/webhooks/',
    {
      ...read,
      schema: {
        operationId: 'webhooks.list',
        summary: 'List webhook endpoints, newest first',
        description:
          'A session, or a team API key (reads need no scope). ' +
          "With `teamId`: that team's endpoints (a team of the caller, else 404). With `organisationId`: that " +
          "organisation's endpoints, for its members (sessions only; anyone else, and every key, gets 404). " +
          "Without either: a key's own team, or with a session every team the caller belongs to. Secrets are " +
          'never listed. Both `teamId` and `organisationId` is 400 validation_failed.',
        tags,
        querystring: WebhookListQuery,
        response: { 200: WebhookEndpointPage },
      },
    },
    async (request) => {
      const { limit, ...query } = request.query;
      return webhooks.list(principalOf(request), { ...query, limit: limit ?? 50 });
    },
  );

  app.post(
    '/api/v1/webhooks/',
    {
      ...write,
      schema: {
        operationId: 'webhooks.create',
        summary: 'Register a webhook endpoint; its signing secret is answered only here',
        description:
          'A session, or a team API key with `webhooks:write`. A session names the team in `teamId`, or an ' +
          'organisation in `organisationId`, and must be its owner or admin (403 `forbidden`; 404 for a team or ' +
          "organisation the caller is not in); a key's endpoint belongs to its team (keys never register " +
          'organisation endpoints: 404). The URL is refused with 400 validation_failed when it is not http(s), ' +
          'carries credentials, or names a private, loopback or link-local address. 409 `conflict` past ' +
          `${MAX_ENDPOINTS_PER_TEAM} endpoints of one team or organisation. ${SIGNING}`,
        tags,
        body: CreateWebhookBody,
        response: {
          201: CreatedWebhookEndpoint,
          409: errorResponse(
            `conflict: the team or organisation already has ${MAX_ENDPOINTS_PER_TEAM} webhook endpoints`,
          ),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await webhooks.create(principalOf(request), request.body)),
  );

  app.patch(
    '/api/v1/webhooks/:id',
    {
      ...write,
      schema: {
        operationId: 'webhooks.update',
        summary: 'Change a webhook endpoint, re-enable it, or rotate its secret',
        description:
          'A session of an owner or admin of the owning team or organisation (403 `forbidden` for other ' +
          "members), or an API key of the owning team with `webhooks:write`; another team's endpoint is 404. " +
          'Only the fields given change; a new `url` is checked as on create (400). ' +
          '`rotateSecret: true` answers the new secret once in `secret`; for 24 h deliveries carry a signature ' +
          'with each secret (`v1,<new> v1,<old>`), so receivers can switch without losing events. ' +
          '`enabled: true` on a disabled endpoint clears `disabledAt` and `failingSince`; attempts that failed ' +
          'while it was disabled are not sent again.',
        tags,
        params: IdParams,
        body: UpdateWebhookBody,
        response: { 200: UpdatedWebhookEndpoint },
      },
    },
    async (request) => webhooks.update(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/webhooks/:id',
    {
      ...write,
      schema: {
        operationId: 'webhooks.delete',
        summary: 'Delete a webhook endpoint and its delivery log; nothing more is sent to it',
        description:
          'A session of an owner or admin of the owning team or organisation (403 `forbidden` for other ' +
          'members), or an API key of the owning team with `webhooks:write`. Attempts still due are dropped. ' +
          "404 for an unknown endpoint or another team's.",
        tags,
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await webhooks.remove(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/webhooks/:id/deliveries',
    {
      ...read,
      schema: {
        operationId: 'webhooks.deliveries',
        summary: 'Delivery attempts to the endpoint, newest first: one row per attempt',
        description:
          'Any member of the owning team or organisation (session), or an API key of the owning team (no ' +
          "scope needed); another team's endpoint is 404. " +
          'A retry is a new row with the same `eventId` and the next `attempt`; a failed attempt shows when the ' +
          'next one is due in `nextAttemptAt`. `eventId` narrows the list to one event (e.g. a test event).',
        tags,
        params: IdParams,
        querystring: DeliveriesQuery,
        response: { 200: WebhookDeliveryPage },
      },
    },
    async (request) => {
      const { limit, ...query } = request.query;
      return webhooks.deliveries(principalOf(request), request.params.id, { ...query, limit: limit ?? 50 });
    },
  );

  app.post(
    '/api/v1/webhooks/:id/test',
    {
      config: { ...write.config, extension: true },
      schema: {
        operationId: 'webhooks.test',
        summary: 'Send a webhook.test event to this endpoint alone, whatever its eventTypes',
        description:
          'A session of an owner or admin of the owning team or organisation (403 `forbidden` for other ' +
          'members), or an API key of the owning team with `webhooks:write`. Records a `webhook.test` event ' +
          'about the endpoint, which is delivered to it alone, signed like every delivery. ' +
          'Answers 202 once the event is recorded: `id` is the event id (the `webhook-id` the receiver sees); ' +
          'follow its attempts with GET /webhooks/{id}/deliveries?eventId={id}. A disabled (or paused) ' +
          'endpoint is 409 `conflict`.',
        tags,
        params: IdParams,
        response: {
          202: WebhookTestEvent,
          409: errorResponse('conflict: the endpoint is disabled; enable it first (PATCH enabled: true)'),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await webhooks.sendTest(principalOf(request), request.params.id)),
  );
}

/** The routes (a named plugin). */
export const webhooksRoutes = fp(
  async (app: App) => {
    await app.register(routes);
  },
  { name: 'webhooks' },
);
