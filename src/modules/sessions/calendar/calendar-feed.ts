import ical, { ICalEventStatus } from 'ical-generator';
import type { FeedSession } from './calendar.repository.ts';

/**
 * An RFC 5545 calendar of a team's sessions. Each session keeps one UID across changes, so subscribed
 * calendars update it in place; a cancelled session stays in the feed with STATUS:CANCELLED.
 */
export function calendarOf(
  input: { teamName: string; host: string; now: Date },
  sessions: FeedSession[],
): string {
  const calendar = ical({
    name: `${input.teamName}: studio sessions`,
    prodId: { company: 'Team Music Workspace', product: 'Studio sessions', language: 'EN' },
    ttl: 60 * 15,
  });
  for (const s of sessions) {
    calendar.createEvent({
      id: `studio-session-${s.id}@${input.host}`,
      summary: s.title,
      start: s.startsAt,
      end: s.endsAt,
      stamp: input.now,
      created: s.createdAt,
      lastModified: s.updatedAt,
      status: s.status === 'cancelled' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      ...(s.notes ? { description: s.notes } : {}),
      ...(s.studioName ? { location: s.studioName } : {}),
    });
  }
  return calendar.toString();
}
