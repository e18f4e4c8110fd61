import { and, asc, count, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { contactHandles, contacts, followUpTasks, users } from '../../../db/schema/index.ts';

export type FollowUpRow = typeof followUpTasks.$inferSelect;
type Owner = { teamId: number; userId: string; botId: string };

const ownedBy = (owner: Owner) =>
  and(
    eq(followUpTasks.teamId, owner.teamId),
    eq(followUpTasks.userId, owner.userId),
    eq(followUpTasks.botId, owner.botId),
  );

export async function insertFollowUp(tx: Db, row: typeof followUpTasks.$inferInsert): Promise<FollowUpRow> {
  const [inserted] = await tx.insert(followUpTasks).values(row).returning();
  return inserted!;
}

/** The owner's tasks, newest first (ids are UUIDv7), older than `before`. */
export function listFollowUps(db: Db, owner: Owner, before: string | undefined, limit: number) {
  return db
    .select()
    .from(followUpTasks)
    .where(and(ownedBy(owner), before ? lt(followUpTasks.id, before) : undefined))
    .orderBy(desc(followUpTasks.id))
    .limit(limit);
}

/** How many tasks the owner has (the list's `total`). */
export async function countFollowUps(db: Db, owner: Owner): Promise<number> {
  const [row] = await db.select({ n: count() }).from(followUpTasks).where(ownedBy(owner));
  return row?.n ?? 0;
}

/** The owner's open tasks, soonest due first (undated last). */
export function openFollowUps(db: Db, owner: Owner, limit: number) {
  return db
    .select()
    .from(followUpTasks)
    .where(and(ownedBy(owner), eq(followUpTasks.status, 'open')))
    .orderBy(sql`${followUpTasks.dueAt} asc nulls last`, asc(followUpTasks.id))
    .limit(limit);
}

/** The team of one of the user's tasks with a bot, if the task exists. */
export async function teamOfFollowUp(
  db: Db,
  owner: Omit<Owner, 'teamId'>,
  taskId: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ teamId: followUpTasks.teamId })
    .from(followUpTasks)
    .where(
      and(
        eq(followUpTasks.id, taskId),
        eq(followUpTasks.userId, owner.userId),
        eq(followUpTasks.botId, owner.botId),
      ),
    );
  return row?.teamId;
}

export async function deleteFollowUp(tx: Db, owner: Owner, taskId: string): Promise<boolean> {
  const rows = await tx
    .delete(followUpTasks)
    .where(and(ownedBy(owner), eq(followUpTasks.id, taskId)))
    .returning({ id: followUpTasks.id });
  return rows.length > 0;
}

const openFor = (owner: Owner, person: string) =>
  and(
    ownedBy(owner),
    eq(followUpTasks.status, 'open'),
    sql`lower(${followUpTasks.person}) = lower(${person})`,
  );

/** How many open tasks the owner has for `person` (by name, case-insensitive). */
export async function countOpenFor(db: Db, owner: Owner, person: string): Promise<number> {
  const [row] = await db.select({ count: count() }).from(followUpTasks).where(openFor(owner, person));
  return row?.count ?? 0;
}

/** Marks the owner's open tasks for `person` (by name, case-insensitive) done; answers them. */
export function completeFollowUps(tx: Db, owner: Owner, person: string, now: Date) {
  return tx
    .update(followUpTasks)
    .set({ status: 'done', completedAt: now, updatedAt: now })
    .where(openFor(owner, person))
    .returning();
}

/** A contact of the team named `person`, or with `person` as a handle (`@maya` or `maya`); the first by id. */
export async function matchContact(db: Db, teamId: number, person: string): Promise<number | null> {
  const handle = person.replace(/^@/, '').toLowerCase();
  const [byHandle] = await db
    .select({ id: contactHandles.contactId })
    .from(contactHandles)
    .where(and(eq(contactHandles.teamId, teamId), eq(contactHandles.handleKey, handle)))
    .orderBy(asc(contactHandles.contactId))
    .limit(1);
  if (byHandle) return byHandle.id;
  const [byName] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), sql`lower(${contacts.name}) = lower(${person})`))
    .orderBy(asc(contacts.id))
    .limit(1);
  return byName?.id ?? null;
}

/** The user's time zone preference, if any. */
export async function timeZoneOf(db: Db, userId: string): Promise<unknown> {
  const [row] = await db
    .select({ timeZone: sql<unknown>`${users.preferences} -> 'timezone'` })
    .from(users)
    .where(eq(users.id, userId));
  return row?.timeZone;
}
