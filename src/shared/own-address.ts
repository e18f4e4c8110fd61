import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema/index.ts';

/** The user's e-mail address and whether it is verified; undefined when there is no such user. */
export async function addressOf(
  db: Db,
  userId: string,
): Promise<{ email: string; verified: boolean } | undefined> {
  const [row] = await db
    .select({ email: users.email, verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row && { email: row.email, verified: row.verifiedAt !== null };
}

/**
 * SQL: the address of user `userId` (a value or SQL of the query) when it is verified, else null. Whatever
 * is matched by the address alone (an invitation without its token) goes only to a verified address; an
 * account made by password sign-up has not shown that the address is its own.
 */
export const verifiedAddressSql = (userId: string | SQL) =>
  sql`(select lower(va.email) from users va where va.id = ${userId} and va.email_verified_at is not null)`;
