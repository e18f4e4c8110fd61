/** The events an endpoint can subscribe to: each with what it means and an example of its `data`. */
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

export const WEBHOOK_EVENT_TYPES = {
  'financial.entry.created': {
    description: 'A financial entry (income or expense) was recorded; data is the entry.',
    data: EXAMPLE_ENTRY,
  },
  'financial.entry.updated': {
    description: 'A financial entry changed; data is the entry as it is now.',
    data: { ...EXAMPLE_ENTRY, status: 'pending', updatedAt: '2025-03-15T08:00:00.000Z' },
  },
  'financial.entry.deleted': {
    description: 'A financial entry was deleted; data is the entry as it was.',
    data: EXAMPLE_ENTRY,
  },
  'financial.import.completed': {
    description: 'A bulk import of financial entries committed (all or nothing); data counts them.',
    data: { teamId: 7, imported: 250 },
  },
  'booking.created': {
    description:
      'A studio session booked a studio (created with one, given one, or no longer cancelled); data is the ' +
      'booking. Sent to the team and to the studio’s organisation.',
    data: EXAMPLE_BOOKING,
  },
  'booking.updated': {
    description:
      'A booking moved: its times or its studio changed; data is the booking as it is now. Sent to the team ' +
      'and to the studio’s organisation.',
    data: { ...EXAMPLE_BOOKING, endsAt: '2025-04-02T15:00:00.000Z' },
  },
  'booking.cancelled': {
    description:
      'A booking ended before its time: its session was cancelled or deleted, or its studio taken off; data ' +
      'is the booking as it was, with status cancelled. Sent to the team and to the studio’s organisation.',
    data: { ...EXAMPLE_BOOKING, status: 'cancelled' },
  },
  'camp.rsvp.updated': {
    description:
      'Someone answered a camp (accepted, declined or maybe) or changed their answer; sent to the camp’s ' +
      'organisation. data is the answer, with previousStatus (null for a first answer).',
    data: {
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
    data: { endpointId: 3, message: 'A test event from Team Music Workspace' },
  },
} as const satisfies Record<string, { description: string; data: unknown }>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;
export const EVENT_TYPE_NAMES = Object.keys(WEBHOOK_EVENT_TYPES) as WebhookEventType[];

/** The example timestamp of every example payload, so the list answers the same every time. */
const EXAMPLE_TIMESTAMP = '2025-03-14T09:30:00.000Z';

/** Every event type with its description and an example of the body an endpoint receives. */
export function eventTypeCatalogue() {
  return EVENT_TYPE_NAMES.map((type) => ({
    type,
    description: WEBHOOK_EVENT_TYPES[type].description,
    examplePayload: { type, timestamp: EXAMPLE_TIMESTAMP, data: WEBHOOK_EVENT_TYPES[type].data },
  }));
}
