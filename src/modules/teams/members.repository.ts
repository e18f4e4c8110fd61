import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type TeamRole, teamMembers, users } from '../../db/schema/index.ts';
import { sameEmail } from '../../shared/email.ts';

export type MemberRow = {
  userId: string;
  name: string | null;
  email: string;
  role: TeamRole;
  joinedAt: Date;
};

/** Join order to the microsecond, as an integer a cursor can hold exactly. */
const joinedMicros = sql<number>`floor(extract(epoch from ${teamMembers.joinedAt}) * 1000000)::bigint`;
/** Alphabetical order of people: their name, or their e-mail when they have none. */
const nameKey = sql<string>`lower(coalesce(nullif(${users.name}, ''), ${users.email}))`;

function selectMembers(db: Db, teamId: number, after: SQL | undefined) {
  return db
    .select({
      userId: teamMembers.userId,
      name: users.name,
      email: users.email,
      role: teamMembers.role,
      joinedAt: teamMembers.joinedAt,
      joinedMicros: joinedMicros.mapWith(Number),
      nameKey,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, teamId), after));
}

/** Members in the order they joined, after the cursor `[joinedMicros, userId]`. */
export function listMembersByJoinDate(db: Db, teamId: number, limit: number, after?: [number, string]) {
  const from = after
    ? sql`(${joinedMicros}, ${teamMembers.userId}) > (${after[0]}::bigint, ${after[1]}::uuid)`
    : undefined;
  return selectMembers(db, teamId, from)
    .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.userId))
    .limit(limit);
}

/** Members in alphabetical order, after the cursor `[nameKey, userId]`. */
export function listMembersByName(db: Db, teamId: number, limit: number, after?: [string, string]) {
  const from = after
    ? sql`(${nameKey}, ${teamMembers.userId}) > (${after[0]}, ${after[1]}::uuid)`
    : undefined;
  return selectMembers(db, teamId, from).orderBy(asc(nameKey), asc(teamMembers.userId)).limit(limit);
}

export async function findMember(db: Db, teamId: number, userId: string): Promise<MemberRow | undefined> {
  const [row] = await selectMembers(db, teamId, eq(teamMembers.userId, userId)).limit(1);
  return row;
}

export async function isMemberByEmail(db: Db, teamId: number, email: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, teamId), sameEmail(users.email, email)))
    .limit(1);
  return row !== undefined;
}

export async function countMembers(db: Db, teamId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
  return row?.n ?? 0;
}

export async function countOwners(db: Db, teamId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.role, 'owner')));
  return row?.n ?? 0;
}

export async function insertMember(
  db: Db,
  values: { teamId: number; userId: string; role: TeamRole; joinedAt: Date },
) {
  await db.insert(teamMembers).values(values);
}

export async function updateMemberRole(
  db: Db,
  teamId: number,
  userId: string,
  role: TeamRole,
): Promise<void> {
  await db
    .update(teamMembers)
    .set({ role })
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
}

export async function deleteMember(db: Db, teamId: number, userId: string): Promise<void> {
  await db.delete(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
}

/**
 * People who share another team with `userId` but are not members of `teamId`, by e-mail,
 * after the cursor (a lower-cased e-mail).
 */
export function listInvitable(db: Db, teamId: number, userId: string, limit: number, after?: string) {
  const emailKey = sql<string>`lower(${users.email})`;
  return db
    .select({ id: users.id, name: users.name, email: users.email, emailKey })
    .from(users)
    .where(
      and(
        sql`${users.id} in (
          select theirs.user_id from ${teamMembers} theirs
          join ${teamMembers} mine on mine.team_id = theirs.team_id and mine.user_id = ${userId}
        )`,
        sql`not exists (
          select 1 from ${teamMembers} here where here.team_id = ${teamId} and here.user_id = ${users.id}
        )`,
        after === undefined ? undefined : sql`${emailKey} > ${after}`,
      ),
    )
    .orderBy(asc(emailKey))
    .limit(limit);
}
