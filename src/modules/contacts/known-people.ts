import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';

/**
 * SQL: the user in `userId` is someone the principal may know: they share a team with the caller (for an
 * API key: they are a member of its team), or they let anyone find them (preference `discoverable`).
 * Unknown users and users hidden from the caller must look alike wherever this is used.
 */
export function mayKnowSql(principal: Principal, userId: SQL | typeof users.id): SQL<boolean> {
  const sharesTeam =
    principal.type === 'key'
      ? sql`exists (select 1 from team_members b where b.team_id = ${principal.teamId} and b.user_id = ${userId})`
      : sql`exists (select 1 from team_members a inner join team_members b on b.team_id = a.team_id
          where a.user_id = ${principal.userId} and b.user_id = ${userId})`;
  return sql<boolean>`(${sharesTeam} or ${users.preferences} @> '{"discoverable": true}'::jsonb)`;
}

/** Whether `userId` names a user the principal may know (false for unknown ids too). */
export async function mayKnowUser(db: Db, principal: Principal, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`${users.id} = ${userId} and ${mayKnowSql(principal, users.id)}`)
    .limit(1);
  return row !== undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether text can be a user id at all (anything else names nobody, and must not reach a uuid column). */
export const isUserId = (text: string) => UUID.test(text);
