import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client.ts';
import { contactEvents, financialEntries, studioSessions } from '../../../db/schema/index.ts';
import { entryView } from '../../financials/entry-view.ts';
import { type EntryRow, entryColumns } from '../../financials/financials.repository.ts';
import type { TimelineItem } from './timeline.schemas.ts';

/** Where a timeline page ends: `[at, source, id]` of its last item; items sort by this key, descending. */
export type TimelineKey = [at: string, source: string, id: number];

/** One item of a source with the parts of its key. */
export type SourcedItem = { at: Date; source: string; id: number; item: TimelineItem };

export type TimelineContact = { id: number; teamId: number; userId: string | null; email: string | null };

/**
 * One kind of thing a contact's timeline shows. Each source reads its own table, newest first, through its
 * own index; the timeline merges them. Another area joins the timeline with one more source here.
 */
export type TimelineSource = {
  name: string;
  read(
    db: Db,
    contact: TimelineContact,
    after: TimelineKey | undefined,
    limit: number,
  ): Promise<SourcedItem[]>;
};

/**
 * SQL: the rows of source `name` that come after `after` in the merged order `(at, source, id)` descending.
 * Within one source the name is fixed, so the comparison reduces to one on `(at, id)`.
 */
function afterKey(
  name: string,
  at: AnyPgColumn,
  id: AnyPgColumn,
  after: TimelineKey | undefined,
): SQL | undefined {
  if (!after) return undefined;
  const [afterAt, afterSource, afterId] = after;
  if (name < afterSource) return sql`${at} <= ${afterAt}::timestamptz`;
  if (name > afterSource) return sql`${at} < ${afterAt}::timestamptz`;
  return sql`(${at}, ${id}) < (${afterAt}::timestamptz, ${afterId}::integer)`;
}

const CONTACT_EVENT = 'contact_event';
const FINANCIAL_ENTRY = 'financial_entry';
const STUDIO_SESSION = 'studio_session';

const contactEventSource: TimelineSource = {
  name: CONTACT_EVENT,
  async read(db, contact, after, limit) {
    const rows = await db
      .select({
        id: contactEvents.id,
        kind: contactEvents.kind,
        data: contactEvents.data,
        at: contactEvents.createdAt,
        by: contactEvents.createdBy,
      })
      .from(contactEvents)
      .where(
        and(
          eq(contactEvents.contactId, contact.id),
          afterKey(CONTACT_EVENT, contactEvents.createdAt, contactEvents.id, after),
        ),
      )
      .orderBy(desc(contactEvents.createdAt), desc(contactEvents.id))
      .limit(limit);
    return rows.map((r) => ({
      at: r.at,
      source: CONTACT_EVENT,
      id: r.id,
      item: { ...r.data, kind: r.kind, at: r.at, by: r.by } as TimelineItem,
    }));
  },
};

const financialEntrySource: TimelineSource = {
  name: FINANCIAL_ENTRY,
  async read(db, contact, after, limit) {
    const rows = await db
      .select({ ...entryColumns, by: financialEntries.createdBy })
      .from(financialEntries)
      .where(
        and(
          eq(financialEntries.teamId, contact.teamId),
          eq(financialEntries.contactId, contact.id),
          afterKey(FINANCIAL_ENTRY, financialEntries.createdAt, financialEntries.id, after),
        ),
      )
      .orderBy(desc(financialEntries.createdAt), desc(financialEntries.id))
      .limit(limit);
    return rows.map(({ by, ...entry }) => ({
      at: entry.createdAt,
      source: FINANCIAL_ENTRY,
      id: entry.id,
      item: { kind: 'financial_entry', at: entry.createdAt, by, entry: entryView(entry as EntryRow) },
    }));
  },
};

/** Participants naming the contact: by its linked user or by its e-mail (each through its own index). */
function participationOf(contact: TimelineContact): SQL | undefined {
  const byUser = contact.userId === null ? undefined : sql`p.user_id = ${contact.userId}`;
  const byEmail = contact.email === null ? undefined : sql`lower(p.email) = lower(${contact.email})`;
  if (!byUser && !byEmail) return undefined;
  return byUser && byEmail ? sql`(${byUser} or ${byEmail})` : (byUser ?? byEmail);
}

const studioSessionSource: TimelineSource = {
  name: STUDIO_SESSION,
  async read(db, contact, after, limit) {
    const participation = participationOf(contact);
    if (!participation) return [];
    const s = studioSessions;
    const rows = await db
      .select({
        id: s.id,
        title: s.title,
        startsAt: s.startsAt,
        endsAt: s.endsAt,
        status: s.status,
        by: s.createdBy,
      })
      .from(s)
      .where(
        and(
          eq(s.teamId, contact.teamId),
          sql`${s.id} in (select p.session_id from session_participants p where ${participation})`,
          afterKey(STUDIO_SESSION, s.startsAt, s.id, after),
        ),
      )
      .orderBy(desc(s.startsAt), desc(s.id))
      .limit(limit);
    return rows.map(({ by, ...session }) => ({
      at: session.startsAt,
      source: STUDIO_SESSION,
      id: session.id,
      item: { kind: 'session', at: session.startsAt, by, session },
    }));
  },
};

/** Every source of the timeline. */
export const TIMELINE_SOURCES: readonly TimelineSource[] = [
  contactEventSource,
  financialEntrySource,
  studioSessionSource,
];
