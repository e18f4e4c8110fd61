import { and, asc, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  contactEvents,
  contactGroupMembers,
  contactGroups,
  contactHandles,
  contacts,
  type LeadStatus,
} from '../../db/schema/index.ts';
import { newTeamRow, type Stamps } from '../../shared/authorship.ts';
import type { HandleValue } from './contact-input.ts';

const outerContactId = sql.raw('"contacts"."id"');

/** Every column of a contact as answers show it: its handles in order and its group ids ascending. */
export const contactColumns = {
  id: contacts.id,
  teamId: contacts.teamId,
  name: contacts.name,
  email: contacts.email,
  phone: contacts.phone,
  company: contacts.company,
  role: contacts.role,
  networks: sql<{ network: string; handle: string }[]>`(select coalesce(json_agg(json_build_object(
      'network', h.network, 'handle', h.handle) order by h.position), '[]'::json)
    from contact_handles h where h.contact_id = ${outerContactId})`,
  tags: contacts.tags,
  groupIds: sql<number[]>`array(select m.group_id from contact_group_members m
    where m.contact_id = ${outerContactId} order by m.group_id)`,
  leadStatus: contacts.leadStatus,
  notes: contacts.notes,
  userId: contacts.userId,
  createdAt: contacts.createdAt,
  updatedAt: contacts.updatedAt,
};

export type ContactRow = {
  id: number;
  teamId: number;
  name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  role: string | null;
  networks: { network: string; handle: string }[];
  tags: string[];
  groupIds: number[];
  leadStatus: LeadStatus;
  notes: string | null;
  userId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/** The columns of the contacts row itself. */
export type ContactValues = {
  name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  role: string | null;
  tags: string[];
  leadStatus: LeadStatus;
  notes: string | null;
  userId: string | null;
};

/** One team's contacts a list reads. */
export type ContactFilter = {
  teamId: number;
  q?: string | undefined;
  groupId?: number | undefined;
  tag?: string | undefined;
  leadStatus?: LeadStatus | undefined;
};

/** Where a page of contacts ends, alphabetically: `[lower(name), id]` of its last contact. */
export type ContactKey = [nameKey: string, id: number];

const nameKey = sql<string>`lower(${contacts.name})`;

function contactFilter(f: ContactFilter): SQL | undefined {
  return and(
    eq(contacts.teamId, f.teamId),
    // starts_with takes the prefix literally: no LIKE wildcards to escape.
    f.q === undefined ? undefined : sql`starts_with(${nameKey}, lower(${f.q}))`,
    f.groupId === undefined
      ? undefined
      : sql`exists (select 1 from ${contactGroupMembers} m where m.contact_id = ${outerContactId}
          and m.group_id = ${f.groupId})`,
    f.tag === undefined ? undefined : sql`${contacts.tags} @> array[${f.tag}]::text[]`,
    f.leadStatus === undefined ? undefined : eq(contacts.leadStatus, f.leadStatus),
  );
}

/** Up to `limit` of the team's contacts after `after`, alphabetically by name (case-insensitive), then id. */
export async function listContacts(
  db: Db,
  f: ContactFilter,
  after: ContactKey | undefined,
  limit: number,
): Promise<(ContactRow & { nameKey: string })[]> {
  const afterKey = after
    ? sql`(${nameKey}, ${contacts.id}) > (${after[0]}::text, ${after[1]}::integer)`
    : undefined;
  return db
    .select({ ...contactColumns, nameKey })
    .from(contacts)
    .where(and(contactFilter(f), afterKey))
    .orderBy(nameKey, asc(contacts.id))
    .limit(limit);
}

/** How many of the team's contacts the filter keeps. */
export async function countContacts(db: Db, f: ContactFilter): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(contacts).where(contactFilter(f));
  return row?.n ?? 0;
}

/** The keyset position of a contact in `listContacts` order. */
export const keyOf = (row: { nameKey: string; id: number }): ContactKey => [row.nameKey, row.id];

/** One contact of the team, with `forUpdate` locked until the transaction ends. */
export async function contactOfTeam(
  db: Db,
  teamId: number,
  contactId: number,
  forUpdate = false,
): Promise<ContactRow | undefined> {
  const query = db
    .select(contactColumns)
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.teamId, teamId)))
    .limit(1);
  const [row] = await (forUpdate ? query.for('update', { of: contacts }) : query);
  return row as ContactRow | undefined;
}

/** The team's contact matching `where` (one of the resolve lookups), if any. */
export async function findContact(db: Db, teamId: number, where: SQL): Promise<ContactRow | undefined> {
  const [row] = await db
    .select(contactColumns)
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), where))
    .orderBy(asc(contacts.id))
    .limit(1);
  return row as ContactRow | undefined;
}

/** One `resolve` lookup, its values already in stored form. */
export type ContactLookup =
  | { kind: 'handle'; network: string; handleKey: string }
  | { kind: 'email'; email: string }
  | { kind: 'phone'; phone: string };

/** SQL: the team's contact a lookup names (each kind walks a unique or team index). */
export function lookupSql(teamId: number, lookup: ContactLookup): SQL {
  switch (lookup.kind) {
    case 'handle':
      return sql`${contacts.id} = (select ${contactHandles.contactId} from ${contactHandles}
        where ${contactHandles.teamId} = ${teamId} and ${contactHandles.network} = ${lookup.network}
          and ${contactHandles.handleKey} = ${lookup.handleKey})`;
    case 'email':
      return sql`lower(${contacts.email}) = ${lookup.email}`;
    case 'phone':
      return eq(contacts.phone, lookup.phone);
  }
}

/** How many lead-status changes `lead-status` shows: the latest ones. */
export const LEAD_HISTORY_LIMIT = 500;

/** The contact's lead-status changes, oldest first (the latest `LEAD_HISTORY_LIMIT`). */
export async function leadStatusHistory(db: Db, contactId: number) {
  const rows = await db
    .select({
      data: contactEvents.data,
      changedAt: contactEvents.createdAt,
      changedBy: contactEvents.createdBy,
    })
    .from(contactEvents)
    .where(and(eq(contactEvents.contactId, contactId), eq(contactEvents.kind, 'lead_status_changed')))
    .orderBy(desc(contactEvents.id))
    .limit(LEAD_HISTORY_LIMIT);
  return rows.reverse().map(({ data, changedAt, changedBy }) => ({
    from: (data.from ?? null) as LeadStatus | null,
    to: data.to as LeadStatus,
    changedAt,
    changedBy,
  }));
}

export async function insertContact(db: Db, values: ContactValues, stamps: Stamps): Promise<number> {
  const [row] = await db
    .insert(contacts)
    .values({
      ...values,
      ...newTeamRow(stamps),
    })
    .returning({ id: contacts.id });
  return row!.id;
}

export async function updateContact(
  db: Db,
  contactId: number,
  fields: Partial<ContactValues>,
  now: Date,
): Promise<void> {
  await db
    .update(contacts)
    .set({ ...fields, updatedAt: now })
    .where(eq(contacts.id, contactId));
}

export async function deleteContact(
  db: Db,
  teamId: number,
  contactId: number,
): Promise<{ id: number; name: string } | undefined> {
  const [row] = await db
    .delete(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.teamId, teamId)))
    .returning({ id: contacts.id, name: contacts.name });
  return row;
}

/** Handles among `handles` that another contact of the team already holds. */
export async function takenHandles(
  db: Db,
  teamId: number,
  handles: HandleValue[],
  exceptContactId?: number,
): Promise<{ network: string; handleKey: string }[]> {
  if (handles.length === 0) return [];
  const pairs = sql.join(
    handles.map((h) => sql`(${h.network}, ${h.handleKey})`),
    sql`, `,
  );
  return db
    .select({ network: contactHandles.network, handleKey: contactHandles.handleKey })
    .from(contactHandles)
    .where(
      and(
        eq(contactHandles.teamId, teamId),
        sql`(${contactHandles.network}, ${contactHandles.handleKey}) in (${pairs})`,
        exceptContactId === undefined ? undefined : ne(contactHandles.contactId, exceptContactId),
      ),
    );
}

/** Adds handles to a contact after those it has, in the given order. */
export async function insertHandles(
  db: Db,
  teamId: number,
  contactId: number,
  handles: HandleValue[],
): Promise<void> {
  if (handles.length === 0) return;
  await db
    .insert(contactHandles)
    .values(handles.map((h, position) => ({ ...h, contactId, teamId, position })));
}

/** Makes `handles` the contact's whole list of handles, in the given order. */
export async function replaceHandles(
  db: Db,
  teamId: number,
  contactId: number,
  handles: HandleValue[],
): Promise<void> {
  await db.delete(contactHandles).where(eq(contactHandles.contactId, contactId));
  await insertHandles(db, teamId, contactId, handles);
}

export async function insertGroupMembers(db: Db, contactId: number, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return;
  await db.insert(contactGroupMembers).values(groupIds.map((groupId) => ({ groupId, contactId })));
}

/** Makes `groupIds` the contact's whole set of groups. */
export async function replaceGroups(db: Db, contactId: number, groupIds: number[]): Promise<void> {
  await db.delete(contactGroupMembers).where(eq(contactGroupMembers.contactId, contactId));
  await insertGroupMembers(db, contactId, groupIds);
}

/** Which of `groupIds` are groups of the team. */
export async function groupsOfTeam(db: Db, teamId: number, groupIds: number[]): Promise<Set<number>> {
  if (groupIds.length === 0) return new Set();
  const rows = await db
    .select({ id: contactGroups.id })
    .from(contactGroups)
    .where(and(eq(contactGroups.teamId, teamId), inArray(contactGroups.id, groupIds)));
  return new Set(rows.map((r) => r.id));
}
