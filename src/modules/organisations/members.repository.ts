import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type OrganisationRole, organisationMembers, users } from '../../db/schema/index.ts';
import { sameEmail } from '../../shared/email.ts';

export type OrganisationMemberRow = {
  userId: string;
  name: string | null;
  email: string;
  role: OrganisationRole;
  joinedAt: Date;
};

/** Join order to the microsecond, as an integer a cursor can hold exactly. */
const joinedMicros = sql<number>`floor(extract(epoch from ${organisationMembers.joinedAt}) * 1000000)::bigint`;

function selectMembers(db: Db) {
  return db
    .select({
      userId: organisationMembers.userId,
      name: users.name,
      email: users.email,
      role: organisationMembers.role,
      joinedAt: organisationMembers.joinedAt,
      joinedMicros: joinedMicros.mapWith(Number),
    })
    .from(organisationMembers)
    .innerJoin(users, eq(users.id, organisationMembers.userId));
}

/** Members in the order they joined, after the cursor `[joinedMicros, userId]`. */
export async function countMembers(db: Db, organisationId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(organisationMembers)
    .where(eq(organisationMembers.organisationId, organisationId));
  return row?.n ?? 0;
}

export function listMembers(db: Db, organisationId: number, limit: number, after?: [number, string]) {
  return selectMembers(db)
    .where(
      and(
        eq(organisationMembers.organisationId, organisationId),
        after
          ? sql`(${joinedMicros}, ${organisationMembers.userId}) > (${after[0]}::bigint, ${after[1]}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(organisationMembers.joinedAt), asc(organisationMembers.userId))
    .limit(limit);
}

export async function findMember(
  db: Db,
  organisationId: number,
  userId: string,
): Promise<OrganisationMemberRow | undefined> {
  const [row] = await selectMembers(db).where(
    and(eq(organisationMembers.organisationId, organisationId), eq(organisationMembers.userId, userId)),
  );
  return row;
}

/** Whether a member of the organisation has this id or this address. */
export async function isMemberBy(
  db: Db,
  organisationId: number,
  who: { userId?: string | undefined; email?: string | undefined },
): Promise<boolean> {
  const [row] = await db
    .select({ userId: organisationMembers.userId })
    .from(organisationMembers)
    .innerJoin(users, eq(users.id, organisationMembers.userId))
    .where(
      and(
        eq(organisationMembers.organisationId, organisationId),
        who.userId !== undefined ? eq(users.id, who.userId) : sameEmail(users.email, who.email ?? ''),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Adds the member; false when they already are one. */
export async function insertMember(
  db: Db,
  values: { organisationId: number; userId: string; role: OrganisationRole; joinedAt: Date },
): Promise<boolean> {
  const rows = await db
    .insert(organisationMembers)
    .values(values)
    .onConflictDoNothing()
    .returning({ userId: organisationMembers.userId });
  return rows.length > 0;
}

export async function updateRole(db: Db, organisationId: number, userId: string, role: OrganisationRole) {
  await db
    .update(organisationMembers)
    .set({ role })
    .where(
      and(eq(organisationMembers.organisationId, organisationId), eq(organisationMembers.userId, userId)),
    );
}

export async function deleteMember(db: Db, organisationId: number, userId: string): Promise<void> {
  await db
    .delete(organisationMembers)
    .where(
      and(eq(organisationMembers.organisationId, organisationId), eq(organisationMembers.userId, userId)),
    );
}

export async function countOwners(db: Db, organisationId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(organisationMembers)
    .where(
      and(eq(organisationMembers.organisationId, organisationId), eq(organisationMembers.role, 'owner')),
    );
  return row?.n ?? 0;
}
