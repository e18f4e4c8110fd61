import type { SessionRow } from './sessions.repository.ts';

/** A session as a booking of a studio: what both the team and the studio's organisation are told. */
export type Booking = { organisationId: number; session: SessionRow };

export type BookingEventType = 'booking.created' | 'booking.updated' | 'booking.cancelled';

export type BookingEvent = {
  owner: { teamId: number } | { organisationId: number };
  type: BookingEventType;
  data: ReturnType<typeof bookingData>;
};

/** The payload of a booking event: the session without its notes, with the studio's organisation. */
export function bookingData({ organisationId, session: s }: Booking, cancelled = false) {
  return {
    id: s.id,
    teamId: s.teamId,
    organisationId,
    studioId: s.studioId,
    campId: s.campId,
    title: s.title,
    startsAt: s.startsAt.toISOString(),
    endsAt: s.endsAt.toISOString(),
    status: cancelled ? 'cancelled' : s.status,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

const moved = (a: SessionRow, b: SessionRow) =>
  a.studioId !== b.studioId ||
  a.startsAt.getTime() !== b.startsAt.getTime() ||
  a.endsAt.getTime() !== b.endsAt.getTime();

/** What one owner is told when its view of a booking goes from `before` to `after` (either may be none). */
function eventFor(before: Booking | null, after: Booking | null): Omit<BookingEvent, 'owner'> | undefined {
  if (!before && after) return { type: 'booking.created', data: bookingData(after) };
  if (before && !after) return { type: 'booking.cancelled', data: bookingData(before, true) };
  if (before && after && moved(before.session, after.session))
    return { type: 'booking.updated', data: bookingData(after) };
  return undefined;
}

/**
 * The events of a change of a session's booking, one per owner (the outbox takes one owner per event): the
 * team's, and the organisation's of the studio (each organisation of a move between two of them).
 * A session without a studio, or cancelled, books nothing: `null`.
 */
export function bookingEvents(before: Booking | null, after: Booking | null): BookingEvent[] {
  const session = (after ?? before)?.session;
  if (!session) return [];
  const events: BookingEvent[] = [];
  const forTeam = eventFor(before, after);
  if (forTeam) events.push({ owner: { teamId: session.teamId }, ...forTeam });
  const sameOrganisation = before?.organisationId === after?.organisationId;
  const pairs: [Booking | null, Booking | null][] = sameOrganisation
    ? [[before, after]]
    : [
        [before, null],
        [null, after],
      ];
  for (const [from, to] of pairs) {
    const organisationId = (to ?? from)?.organisationId;
    const event = eventFor(from, to);
    if (organisationId !== undefined && event) events.push({ owner: { organisationId }, ...event });
  }
  return events;
}
