import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { teamMembers, users } from '../../db/schema/index.ts';

/** The profile fields; the default team only while the user still belongs to it (checked on every read). */
export async function findProfile(db: Db, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      defaultTeamId: teamMembers.teamId,
      zeroDataRetention: users.zeroDataRetention,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .leftJoin(teamMembers, and(eq(teamMembers.userId, users.id), eq(teamMembers.teamId, users.defaultTeamId)))
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

export type UserUpdate = Partial<
  Pick<typeof users.$inferInsert, 'name' | 'defaultTeamId' | 'zeroDataRetention' | 'lastAppOpenedAt'>
>;

/** Updates the user's own fields; undefined when the user does not exist. */
export async function updateUser(db: Db, userId: string, values: UserUpdate, now: Date) {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: now })
    .where(eq(users.id, userId))
    .returning({
      zeroDataRetention: users.zeroDataRetention,
      lastAppOpenedAt: users.lastAppOpenedAt,
    });
  return row;
}

/** Merges changed preferences into the stored ones in one statement, so concurrent changes to other fields survive. */
export async function mergePreferences(
  db: Db,
  userId: string,
  patch: Record<string, unknown>,
  now: Date,
): Promise<Record<string, unknown> | undefined> {
  const [row] = await db
    .update(users)
    .set({ preferences: sql`${users.preferences} || ${JSON.stringify(patch)}::jsonb`, updatedAt: now })
    .where(eq(users.id, userId))
    .returning({ preferences: users.preferences });
  return row?.preferences;
}
