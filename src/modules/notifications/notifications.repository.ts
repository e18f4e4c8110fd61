import { and, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications, organisationMembers, teamMembers, users } from '../../db/schema/index.ts';
import type { NotificationDraft } from './notification-rules.ts';

export type NotificationRow = typeof notifications.$inferSelect & { actorName: string | null };

/** Seen only while its person still belongs to the team or organisation it is about. */
const stillBelongs = sql`(${notifications.teamId} is null or exists (select 1 from ${teamMembers} m
    where m.team_id = ${notifications.teamId} and m.user_id = ${notifications.userId}))
  and (${notifications.organisationId} is null or exists (select 1 from ${organisationMembers} o
    where o.organisation_id = ${notifications.organisationId} and o.user_id = ${notifications.userId}))`;

const columns = {
  id: notifications.id,
  userId: notifications.userId,
  kind: notifications.kind,
  teamId: notifications.teamId,
  organisationId: notifications.organisationId,
  actorUserId: notifications.actorUserId,
  subjectType: notifications.subjectType,
  subjectId: notifications.subjectId,
  data: notifications.data,
  dedupeKey: notifications.dedupeKey,
  createdAt: notifications.createdAt,
  readAt: notifications.readAt,
  actorName: users.name,
};

/** The person's notifications, newest first, after the keyset `before` (an id). */
export function listNotifications(
  db: Db,
  userId: string,
  options: { unreadOnly: boolean; limit: number; before?: number | undefined },
): Promise<NotificationRow[]> {
  return db
    .select(columns)
    .from(notifications)
    .leftJoin(users, eq(users.id, notifications.actorUserId))
    .where(
      and(
        eq(notifications.userId, userId),
        options.unreadOnly ? isNull(notifications.readAt) : undefined,
        options.before === undefined ? undefined : lt(notifications.id, options.before),
        stillBelongs,
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(options.limit);
}

export async function countUnread(db: Db, userId: string): Promise<number> {
  return countNotifications(db, userId, { unreadOnly: true });
}

/** How many notifications the person's list holds: every one shown, or the unread ones. */
export async function countNotifications(db: Db, userId: string, options: { unreadOnly: boolean }) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        options.unreadOnly ? isNull(notifications.readAt) : undefined,
        stillBelongs,
      ),
    );
  return row?.n ?? 0;
}

/** Marks the person's unread notifications read (those of `ids`, or all); answers how many changed. */
export async function markRead(db: Db, userId: string, ids: number[] | 'all', now: Date): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        ids === 'all' ? undefined : inArray(notifications.id, ids),
      ),
    )
    .returning({ id: notifications.id });
  return rows.length;
}

/** Inserts drafts; a person already told under the same key is skipped. Answers the rows written. */
export async function insertNotifications(
  db: Db,
  drafts: NotificationDraft[],
  now?: Date,
): Promise<(typeof notifications.$inferSelect)[]> {
  if (drafts.length === 0) return [];
  return db
    .insert(notifications)
    .values(drafts.map((d) => (now ? { ...d, createdAt: now } : d)))
    .onConflictDoNothing()
    .returning();
}

/** Recipients who may be told: accounts not being deleted, with their preferences and memberships. */
export async function recipientsOf(db: Db, drafts: NotificationDraft[]) {
  const userIds = [...new Set(drafts.map((d) => d.userId))];
  const teamIds = [...new Set(drafts.flatMap((d) => (d.teamId === null ? [] : [d.teamId])))];
  const organisationIds = [
    ...new Set(drafts.flatMap((d) => (d.organisationId === null ? [] : [d.organisationId]))),
  ];
  const people = await db
    .select({ id: users.id, preferences: users.preferences })
    .from(users)
    .where(and(inArray(users.id, userIds), isNull(users.deletionRequestedAt)));
  const teams =
    teamIds.length === 0
      ? []
      : await db
          .select({ userId: teamMembers.userId, id: teamMembers.teamId })
          .from(teamMembers)
          .where(and(inArray(teamMembers.userId, userIds), inArray(teamMembers.teamId, teamIds)));
  const organisations =
    organisationIds.length === 0
      ? []
      : await db
          .select({ userId: organisationMembers.userId, id: organisationMembers.organisationId })
          .from(organisationMembers)
          .where(
            and(
              inArray(organisationMembers.userId, userIds),
              inArray(organisationMembers.organisationId, organisationIds),
            ),
          );
  return {
    people: new Map(people.map((p) => [p.id, p])),
    teams: new Set(teams.map((m) => `${m.userId}:${m.id}`)),
    organisations: new Set(organisations.map((m) => `${m.userId}:${m.id}`)),
  };
}

export async function userName(db: Db, userId: string | null): Promise<string | null> {
  if (userId === null) return null;
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return row?.name ?? null;
}
