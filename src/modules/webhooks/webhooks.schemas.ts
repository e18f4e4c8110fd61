import { Type } from '@sinclair/typebox';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_PAUSE_REASONS } from '../../db/schema/index.ts';
import { Id, IdParams, Page, PageQuery, Timestamp, Uuid } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';
import { EVENT_TYPE_NAMES, eventTypeCatalogue } from './event-types.ts';

const EventTypeName = StringEnum(EVENT_TYPE_NAMES, { description: 'A webhook event type' });
const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'https (or http) URL the events are POSTed to; no credentials in it. Stored in its normal form. A host ' +
    'that is a private, loopback or link-local address is refused here, and every connection checks again ' +
    'what the name resolves to.',
});
const Description = Type.String({ maxLength: 500 });
const EventTypes = Type.Array(EventTypeName, {
  maxItems: EVENT_TYPE_NAMES.length,
  description: 'Event types sent to the endpoint; empty (the default): every type',
});
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const ENDPOINT_EXAMPLE = {
  id: 3,
  teamId: 7,
  organisationId: null,
  url: 'https://hooks.lunavale.example/team-music',
  description: 'Bookkeeping sync',
  eventTypes: ['financial.entry.created', 'financial.entry.updated', 'financial.entry.deleted'],
  enabled: true,
  failingSince: null,
  disabledAt: null,
  pausedAt: null,
  pausedReason: null,
  previousSecretExpiresAt: null,
  createdAt: '2026-03-14T09:30:00.000Z',
  updatedAt: '2026-03-14T09:30:00.000Z',
};
const SECRET_EXAMPLE = 'whsec_EXAMPLE-not-a-real-secret';

export const WebhookEndpoint = Type.Object(
  {
    id: Id,
    teamId: Type.Union([Id, Type.Null()], {
      description: 'The owning team (null for an organisation endpoint)',
    }),
    organisationId: Type.Union([Id, Type.Null()], {
      description: 'The owning organisation (null for a team endpoint)',
    }),
    url: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    eventTypes: Type.Array(Type.String(), { description: 'Empty: every event type' }),
    enabled: Type.Boolean(),
    failingSince: Type.Union([Timestamp, Type.Null()], {
      description: 'Start of the current run of failed deliveries; null after any success',
    }),
    disabledAt: Type.Union([Timestamp, Type.Null()], {
      description: 'When the endpoint was disabled (by a PATCH, or after 5 days of failed deliveries)',
    }),
    pausedAt: Type.Union([Timestamp, Type.Null()], {
      description:
        'When the endpoint was paused because the person or key that registered it lost that right (left the ' +
        'team or organisation, was removed or demoted below admin, deleted the account; the key was revoked). ' +
        'A paused endpoint is disabled: PATCH `enabled: true` by an owner or admin clears the pause',
    }),
    pausedReason: Type.Union([StringEnum(WEBHOOK_PAUSE_REASONS), Type.Null()], {
      description: 'Why the endpoint was paused; null when it is not',
    }),
    previousSecretExpiresAt: Type.Union([Timestamp, Type.Null()], {
      description: 'After a rotation: until when deliveries are signed with the previous secret too',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'WebhookEndpoint', examples: [ENDPOINT_EXAMPLE] },
);

const SecretField = Type.String({
  description: 'Signing secret (whsec_ + base64); returned only when created or rotated, keep it safe',
});

export const CreatedWebhookEndpoint = Type.Composite(
  [WebhookEndpoint, Type.Object({ secret: SecretField })],
  { title: 'CreatedWebhookEndpoint', examples: [{ ...ENDPOINT_EXAMPLE, secret: SECRET_EXAMPLE }] },
);
export const UpdatedWebhookEndpoint = Type.Composite(
  [WebhookEndpoint, Type.Object({ secret: Type.Optional(SecretField) })],
  {
    title: 'UpdatedWebhookEndpoint',
    description: 'The endpoint; `secret` only when the request rotated it',
    examples: [
      {
        ...ENDPOINT_EXAMPLE,
        previousSecretExpiresAt: '2026-03-21T10:00:00.000Z',
        updatedAt: '2026-03-20T10:00:00.000Z',
        secret: SECRET_EXAMPLE,
      },
    ],
  },
);

export const WebhookEndpointPage = Page(WebhookEndpoint);

export const WebhookListQuery = Type.Object({
  teamId: Type.Optional(Id),
  organisationId: Type.Optional(Id),
  ...PageQuery,
});

export const CreateWebhookBody = Type.Object(
  {
    url: Url,
    teamId: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2_147_483_647,
        description:
          'The owning team: with a session, this or organisationId is required; with a key, its own team (the default)',
      }),
    ),
    organisationId: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2_147_483_647,
        description: 'The owning organisation instead of a team (sessions of its owners and admins only)',
      }),
    ),
    description: Type.Optional(Description),
    eventTypes: Type.Optional(EventTypes),
  },
  {
    title: 'WebhookEndpointCreate',
    examples: [
      {
        url: ENDPOINT_EXAMPLE.url,
        teamId: 7,
        description: ENDPOINT_EXAMPLE.description,
        eventTypes: ENDPOINT_EXAMPLE.eventTypes,
      },
    ],
  },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    description: Type.Optional(Nullable(Description)),
    eventTypes: Type.Optional(EventTypes),
    enabled: Type.Optional(
      Type.Boolean({
        description: 'false stops deliveries; true re-enables and clears failingSince and any pause',
      }),
    ),
    rotateSecret: Type.Optional(
      Type.Boolean({
        description:
          'true: a new secret, answered once in `secret`; the previous one keeps signing alongside for 24 h',
      }),
    ),
  },
  {
    title: 'WebhookEndpointUpdate',
    minProperties: 1,
    examples: [{ eventTypes: ['financial.entry.created', 'booking.created'], rotateSecret: true }],
  },
);

const TEST_EVENT_INFO = eventTypeCatalogue().find((info) => info.type === 'webhook.test')!;

export const EventTypeInfo = Type.Object(
  {
    type: Type.String(),
    description: Type.String(),
    examplePayload: Type.Object(
      {
        type: Type.String(),
        timestamp: Type.String({
          format: 'date-time',
          description: 'When the event happened (ISO-8601 UTC)',
        }),
        data: Type.Unknown(),
      },
      { description: 'The JSON body an endpoint receives' },
    ),
    dataSchema: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'The JSON Schema of `data` (the same as the `webhooks` section of the OpenAPI document names): ids and ' +
        'the changed fields, never data the receiving team cannot read itself',
    }),
  },
  { title: 'WebhookEventTypeInfo', examples: [TEST_EVENT_INFO] },
);

export const EventTypeList = Type.Object(
  { items: Type.Array(EventTypeInfo) },
  { title: 'WebhookEventTypeList', examples: [{ items: [TEST_EVENT_INFO] }] },
);

export const WebhookDelivery = Type.Object(
  {
    id: Id,
    eventId: Uuid,
    eventType: Type.String(),
    attempt: Type.Integer({ minimum: 1, description: '1 to 8; a retry is a new row with the same eventId' }),
    status: StringEnum(WEBHOOK_DELIVERY_STATUSES),
    responseStatus: Type.Union([Type.Integer(), Type.Null()], {
      description: "The receiver's HTTP status; null when no answer came (timeout, refused connection)",
    }),
    durationMs: Type.Union([Type.Integer(), Type.Null()], { description: 'Milliseconds the attempt took' }),
    error: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    nextAttemptAt: Type.Union([Timestamp, Type.Null()], {
      description:
        'On a failed attempt: when the next one is due (null after the last, or when none follows)',
    }),
  },
  {
    title: 'WebhookDelivery',
    examples: [
      {
        id: 5120,
        eventId: '0193a5f2-d38f-7ca1-8a87-0d9e1f2a3b4c',
        eventType: 'financial.entry.created',
        attempt: 2,
        status: 'failed',
        responseStatus: 503,
        durationMs: 184,
        error: 'HTTP 503',
        createdAt: '2026-03-14T09:30:05.000Z',
        nextAttemptAt: '2026-03-14T09:35:05.000Z',
      },
    ],
  },
);

export const WebhookDeliveryPage = Page(WebhookDelivery);

export const DeliveriesQuery = Type.Object({
  eventId: Type.Optional(
    Type.String({ format: 'uuid', maxLength: 45, description: 'Only the attempts of this event' }),
  ),
  ...PageQuery,
});

export const WebhookTestEvent = Type.Object(
  {
    id: Uuid,
    status: Type.Literal('queued'),
    endpointId: Id,
    type: Type.Literal('webhook.test'),
    payload: EventTypeInfo.properties.examplePayload,
  },
  {
    title: 'WebhookTestResult',
    examples: [
      {
        id: '0193a5f2-e4a0-7db2-9b98-1eaf2a3b4c5d',
        status: 'queued',
        endpointId: 3,
        type: 'webhook.test',
        payload: {
          type: 'webhook.test',
          timestamp: '2026-03-14T09:30:00.000Z',
          data: { endpointId: 3, message: 'A test event from Team Music Workspace' },
        },
      },
    ],
  },
);

export { IdParams };
