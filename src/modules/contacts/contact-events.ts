import type { Db } from '../../db/client.ts';
import { contactEvents } from '../../db/schema/index.ts';
import { actorOf } from '../../events/actor.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import { createdByOf } from '../../shared/authorship.ts';

/** Kinds of `contact_events` rows; each is one kind of timeline item. */
export const CONTACT_EVENT_KINDS = ['created', 'updated', 'lead_status_changed', 'notes_changed'] as const;
export type ContactEventKind = (typeof CONTACT_EVENT_KINDS)[number];

export type ContactEvent = { kind: ContactEventKind; data: Record<string, unknown> };

/**
 * What a write of one contact leaves behind, in its transaction: its `contact_events` rows (the timeline and
 * the lead-status history) and one event in the log.
 */
export async function recordContactWrite(
  tx: Db,
  log: EventLog,
  principal: Principal,
  write: {
    teamId: number;
    contactId: number;
    action: 'created' | 'updated';
    events: ContactEvent[];
    now: Date;
    payload?: Record<string, unknown>;
  },
): Promise<void> {
  const actor = actorOf(principal);
  if (write.events.length > 0)
    await tx.insert(contactEvents).values(
      write.events.map((event) => ({
        teamId: write.teamId,
        contactId: write.contactId,
        kind: event.kind,
        data: event.data,
        ...createdByOf(actor),
        createdAt: write.now,
      })),
    );
  await log.record(tx, {
    type: `contact.${write.action}`,
    subject: { type: 'contact', id: write.contactId },
    actor,
    teamId: write.teamId,
    ...(write.payload ? { payload: write.payload } : {}),
  });
}

/** The event of a deletion (the contact's `contact_events` rows go with it). */
export const recordContactDeleted = (
  tx: Db,
  log: EventLog,
  principal: Principal,
  teamId: number,
  contact: { id: number; name: string },
) =>
  log.record(tx, {
    type: 'contact.deleted',
    subject: { type: 'contact', id: contact.id },
    actor: actorOf(principal),
    teamId,
    payload: { name: contact.name },
  });
