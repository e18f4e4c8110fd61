import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../shared/schemas.ts';
import { TICKET_TTL_SECONDS } from './stream-tickets.service.ts';

export const StreamTicket = Type.Object(
  {
    ticket: Type.String({
      description: `Single use, valid ${TICKET_TTL_SECONDS} seconds: pass it as ?ticket= when opening the stream`,
    }),
    expiresAt: Timestamp,
  },
  {
    title: 'StreamTicket',
    examples: [
      { ticket: 'q7Xv2LmN9pR4sT8wY1zA3bC5dE6fG0hJ2kM4nP6rS8u', expiresAt: '2026-03-14T09:31:00.000Z' },
    ],
  },
);

/** The `ticket` query parameter of a stream that takes one. */
export const TicketQuery = Type.Optional(
  Type.String({
    pattern: '^[A-Za-z0-9_-]{43}$',
    maxLength: 43,
    description:
      'A stream ticket (from the ticket endpoint) in place of the Authorization header, for EventSource; ' +
      'used up by this request',
  }),
);
