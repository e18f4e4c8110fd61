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

const EXAMPLE_BOOKING = {
  id: 311,
  teamId: 7,
  title: 'Vocal tracking',
  startsAt: '2025-04-02T10:00:00.000Z',
  endsAt: '2025-04-02T14:00:00.000Z',
  status: 'confirmed',
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
    description: 'A studio session was booked; data is the booking.',
    data: EXAMPLE_BOOKING,
  },
  'booking.updated': {
    description: 'A studio booking changed (time, room, participants); data is the booking as it is now.',
    data: { ...EXAMPLE_BOOKING, endsAt: '2025-04-02T15:00:00.000Z' },
  },
  'booking.cancelled': {
    description: 'A studio booking was cancelled; data is the booking as it was.',
    data: { ...EXAMPLE_BOOKING, status: 'cancelled' },
  },
  'camp.rsvp.updated': {
    description: 'Someone answered or changed their answer to a camp invitation; data is the answer.',
    data: {
      campId: 5,
      userId: '0190a6e4-8c1e-7cc2-9a4b-2f8e1c3d4b5a',
      status: 'accepted',
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
