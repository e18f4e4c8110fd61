import fp from 'fastify-plugin';
import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { IdParams, NoContent } from '../../shared/schemas.ts';
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
          "With `teamId`: that team's endpoints (a team of the caller, else 404). With `organisationId`: that " +
          "organisation's endpoints, for its members (sessions only; anyone else, and every key, gets 404). " +
          "Without either: a key's own team, or with a session every team the caller belongs to. Secrets are " +
          'never listed.',
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
          'A session names the team in `teamId`, or an organisation in `organisationId`, and must be its owner or ' +
          `admin; a key's endpoint belongs to its team (keys never register organisation endpoints). ${SIGNING}`,
        tags,
        body: CreateWebhookBody,
        response: { 201: CreatedWebhookEndpoint },
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
          'Answers 202 once the event is recorded: `id` is the event id (the `webhook-id` the receiver sees); ' +
          'follow its attempts with GET /webhooks/{id}/deliveries?eventId={id}. A disabled endpoint is 409.',
        tags,
        params: IdParams,
        response: { 202: WebhookTestEvent },
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
