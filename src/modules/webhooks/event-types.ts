import { type TSchema, Type } from '@sinclair/typebox';
import { CAMP_RSVP_STATUSES, FINANCIAL_STATUSES } from '../../db/schema/index.ts';
import { Id, Uuid } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';
import { ALBUM_EVENTS } from '../albums/album-events.ts';
import { SHARE_LINK_EVENTS } from '../share-links/share-link-events.ts';
import { COMMENT_EVENTS } from '../tracks/comments/comment-events.ts';
import { MUSIC_TOOL_EVENTS } from '../tracks/music-tools/music-tool-events.ts';
import { REVIEW_EVENTS } from '../tracks/reviews/review-events.ts';
import { STEM_EVENTS } from '../tracks/stems/stem-events.ts';
import { TRACK_EVENTS } from '../tracks/track-events.ts';
import { VERSION_EVENTS } from '../tracks/versions/version-events.ts';

/** One event type: what it means, the JSON schema of its `data`, and an example of that data. */
export type WebhookEventSpec = { description: string; schema: TSchema; example: unknown };

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Instant = Type.String({ format: 'date-time' });

const EXAMPLE_ENTRY = {
  id: 42,
  teamId: 7,
  isIncome: true,
  amount: 1250.5,
  currency: 'EUR',
  occurredOn: '2025-03-14',
  category: 'Sync licensing',
  description: 'Trailer placement, "Night Drive"',
  contactId: 12,
  status: 'confirmed',
  createdAt: '2025-03-14T09:30:00.000Z',
  updatedAt: '2025-03-14T09:30:00.000Z',
};

/** A studio session as a booking: sent to the session's team and to the studio's organisation. */
const EXAMPLE_BOOKING = {
  id: 311,
  teamId: 7,
  organisationId: 2,
  studioId: 4,
  campId: null,
  title: 'Vocal tracking',
  startsAt: '2025-04-02T10:00:00.000Z',
  endsAt: '2025-04-02T14:00:00.000Z',
  status: 'scheduled',
  createdAt: '2025-03-20T16:02:11.000Z',
  updatedAt: '2025-03-20T16:02:11.000Z',
};

const FinancialEntry = Type.Object({
  id: Id,
  teamId: Id,
  isIncome: Type.Boolean(),
  amount: Type.Number(),
  currency: Type.String(),
  occurredOn: Type.String({ format: 'date' }),
  category: Nullable(Type.String()),
  description: Nullable(Type.String()),
  contactId: Nullable(Id),
  status: StringEnum(FINANCIAL_STATUSES),
  createdAt: Instant,
  updatedAt: Instant,
});

const Booking = Type.Object({
  id: Id,
  teamId: Id,
  organisationId: Id,
  studioId: Id,
  campId: Nullable(Id),
  title: Type.String(),
  startsAt: Instant,
  endsAt: Instant,
  status: Type.String({ description: 'The session status; cancelled once the booking ended' }),
  createdAt: Instant,
  updatedAt: Instant,
});

/** The events of money, bookings and camps, and the test event. */
const WORKSPACE_EVENTS = {
  'financial.entry.created': {
    description: 'A financial entry (income or expense) was recorded; data is the entry.',
    schema: FinancialEntry,
    example: EXAMPLE_ENTRY,
  },
  'financial.entry.updated': {
    description: 'A financial entry changed; data is the entry as it is now.',
    schema: FinancialEntry,
    example: { ...EXAMPLE_ENTRY, status: 'pending', updatedAt: '2025-03-15T08:00:00.000Z' },
  },
  'financial.entry.deleted': {
    description: 'A financial entry was deleted; data is the entry as it was.',
    schema: FinancialEntry,
    example: EXAMPLE_ENTRY,
  },
  'financial.import.completed': {
    description: 'A bulk import of financial entries committed (all or nothing); data counts them.',
    schema: Type.Object({ teamId: Id, count: Type.Integer({ minimum: 0 }) }),
    example: { teamId: 7, count: 250 },
  },
  'booking.created': {
    description:
      'A studio session booked a studio (created with one, given one, or no longer cancelled); data is the ' +
      'booking. Sent to the team and to the studio’s organisation.',
    schema: Booking,
    example: EXAMPLE_BOOKING,
  },
  'booking.updated': {
    description:
      'A booking moved: its times or its studio changed; data is the booking as it is now. Sent to the team ' +
      'and to the studio’s organisation.',
    schema: Booking,
    example: { ...EXAMPLE_BOOKING, endsAt: '2025-04-02T15:00:00.000Z' },
  },
  'booking.cancelled': {
    description:
      'A booking ended before its time: its session was cancelled or deleted, or its studio taken off; data ' +
      'is the booking as it was, with status cancelled. Sent to the team and to the studio’s organisation.',
    schema: Booking,
    example: { ...EXAMPLE_BOOKING, status: 'cancelled' },
  },
  'camp.rsvp.updated': {
    description:
      'Someone answered a camp (accepted, declined or maybe) or changed their answer; sent to the camp’s ' +
      'organisation. data is the answer, with previousStatus (null for a first answer).',
    schema: Type.Object({
      organisationId: Id,
      campId: Id,
      userId: Uuid,
      status: StringEnum(CAMP_RSVP_STATUSES),
      previousStatus: Nullable(StringEnum(CAMP_RSVP_STATUSES)),
      createdAt: Instant,
      updatedAt: Instant,
    }),
    example: {
      organisationId: 2,
      campId: 5,
      userId: '0190a6e4-8c1e-7cc2-9a4b-2f8e1c3d4b5a',
      status: 'accepted',
      previousStatus: 'maybe',
      createdAt: '2025-04-28T09:15:00.000Z',
      updatedAt: '2025-05-01T12:00:00.000Z',
    },
  },
  'webhook.test': {
    description:
      'Sent by POST /webhooks/{id}/test to that endpoint only, whatever its eventTypes; data names the endpoint.',
    schema: Type.Object({ endpointId: Id, message: Type.String() }),
    example: { endpointId: 3, message: 'A test event from Team Music Workspace' },
  },
} as const;

/**
 * The events an endpoint can subscribe to: the workspace's, then the catalogue's (tracks, versions, stems,
 * comments, reviews, music tools, albums) and what guests did through review links, each sent to the team that
 * owns what changed.
 */
export const WEBHOOK_EVENT_TYPES = {
  ...WORKSPACE_EVENTS,
  ...TRACK_EVENTS,
  ...VERSION_EVENTS,
  ...STEM_EVENTS,
  ...COMMENT_EVENTS,
  ...REVIEW_EVENTS,
  ...MUSIC_TOOL_EVENTS,
  ...ALBUM_EVENTS,
  ...SHARE_LINK_EVENTS,
} as const satisfies Record<string, WebhookEventSpec>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;
export const EVENT_TYPE_NAMES = Object.keys(WEBHOOK_EVENT_TYPES) as WebhookEventType[];

/** The example timestamp of every example payload, so the list answers the same every time. */
const EXAMPLE_TIMESTAMP = '2025-03-14T09:30:00.000Z';

/** Every event type with its description, an example of the body an endpoint receives and the schema of `data`. */
export function eventTypeCatalogue() {
  return EVENT_TYPE_NAMES.map((type) => ({
    type,
    description: WEBHOOK_EVENT_TYPES[type].description,
    examplePayload: { type, timestamp: EXAMPLE_TIMESTAMP, data: WEBHOOK_EVENT_TYPES[type].example },
    dataSchema: jsonSchemaOf(type),
  }));
}

/** The JSON schema of a type's `data`, as plain JSON (without TypeBox's own marks). */
export function jsonSchemaOf(type: WebhookEventType): Record<string, unknown> {
  return JSON.parse(JSON.stringify(WEBHOOK_EVENT_TYPES[type].schema));
}
