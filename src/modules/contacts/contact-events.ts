import type { Db } from '../../db/client.ts';
import { contactEvents } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import { activityRecorder, actorOf } from '../activity/activity.ts';
import { createdByOf } from '../activity/authorship.ts';

/** Kinds of `contact_events` rows; each is one kind of timeline item. */
export const CONTACT_EVENT_KINDS = ['created', 'updated', 'lead_status_changed', 'notes_changed'] as const;
export type ContactEventKind = (typeof CONTACT_EVENT_KINDS)[number];

export type ContactEvent = { kind: ContactEventKind; data: Record<string, unknown> };

const recordActivity = activityRecorder('contact');

/**
 * What a write of one contact leaves behind, in its transaction: its `contact_events` rows (the timeline and
 * the lead-status history) and one activity entry.
 */
export async function recordContactWrite(
  tx: Db,
  principal: Principal,
  write: {
    teamId: number;
    contactId: number;
    action: 'created' | 'updated';
    events: ContactEvent[];
    now: Date;
    activity?: Record<string, unknown>;
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
  await recordActivity(
    tx,
    principal,
    write.teamId,
    `contact.${write.action}`,
    write.contactId,
    write.activity,
  );
}

/** The activity entry of a deletion (the contact's events go with it). */
export const recordContactDeleted = (
  tx: Db,
  principal: Principal,
  teamId: number,
  contact: { id: number; name: string },
) => recordActivity(tx, principal, teamId, 'contact.deleted', contact.id, { name: contact.name });
