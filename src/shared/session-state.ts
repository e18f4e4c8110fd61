import { type SQL, sql } from 'drizzle-orm';

/** Whether a team API key is live (not revoked, not expired), as an expression a read puts in its statement. */
export function keyIsActiveSql(keyId: unknown, now: unknown): SQL<boolean> {
  return sql<boolean>`exists (select 1 from api_keys k
    where k.id = ${keyId} and k.revoked_at is null and (k.expires_at is null or k.expires_at > ${now}))`;
}

/**
 * Whether a session is active, as an expression a read puts in its own statement: the authenticator's test
 * (not logged out, not expired, the account not scheduled for deletion) without a round trip of its own.
 */
export function sessionIsActiveSql(sessionId: unknown, userId: unknown, now: unknown): SQL<boolean> {
  return sql<boolean>`exists (select 1 from sessions s inner join users u on u.id = s.user_id
    where s.id = ${sessionId} and s.user_id = ${userId} and s.revoked_at is null and s.expires_at > ${now}
      and u.deletion_requested_at is null)`;
}
