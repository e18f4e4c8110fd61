import { EVENT_TYPE_NAMES, jsonSchemaOf, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './event-types.ts';

/** The component name of a type's `data` schema: `track.created` is `WebhookTrackCreated`. */
export function dataComponentName(type: string): string {
  const words = type.split(/[._]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return `Webhook${words.join('')}`;
}

const header = (name: string, description: string, example: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
  example,
});

/** The Standard Webhooks headers every delivery carries. */
const SIGNATURE_HEADERS = [
  header(
    'webhook-id',
    'The event id: the same on every attempt of the event, so a receiver can drop repeats',
    'msg_0190a6e4-9d2f-7a10-8b3c-4d5e6f708192',
  ),
  header('webhook-timestamp', 'When the attempt was signed, in seconds since the epoch', '1741944600'),
  header(
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the bytes after ' +
      '`whsec_` of the endpoint’s secret; for 24 h after a rotation a second signature with the previous ' +
      'secret follows, separated by a space. Any Standard Webhooks library verifies it.',
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
];

function operation(type: WebhookEventType) {
  const spec = WEBHOOK_EVENT_TYPES[type];
  return {
    post: {
      operationId: `webhooks.events.${type}`,
      summary: type,
      description: spec.description,
      tags: ['webhooks'],
      security: [],
      parameters: SIGNATURE_HEADERS,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['type', 'timestamp', 'data'],
              properties: {
                type: { type: 'string', const: type },
                timestamp: {
                  type: 'string',
                  format: 'date-time',
                  description: 'When the event happened (ISO-8601 UTC)',
                },
                data: { $ref: `#/components/schemas/${dataComponentName(type)}` },
              },
            },
            example: { type, timestamp: '2025-03-14T09:30:00.000Z', data: spec.example },
          },
        },
      },
      responses: {
        '2XX': { description: 'Delivered: any 2xx within 10 s' },
        '4XX': {
          description:
            'Not delivered: any other answer, a redirect, or none within 10 s fails the attempt; it is retried ' +
            '5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h later',
        },
      },
    },
  };
}

/**
 * The OpenAPI 3.1 `webhooks` section, one POST per event type with the signature headers, and the schemas of
 * each type's `data` as named components.
 */
export function webhooksOpenApi() {
  return {
    webhooks: Object.fromEntries(EVENT_TYPE_NAMES.map((type) => [type, operation(type)])),
    schemas: Object.fromEntries(
      EVENT_TYPE_NAMES.map((type) => [
        dataComponentName(type),
        { ...jsonSchemaOf(type), description: `The data of ${type} events` },
      ]),
    ),
  };
}
