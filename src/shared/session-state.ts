import { type SQL, sql } from 'drizzle-orm';

/** Whether a team API key is live (not revoked, not expired), as an expression a read puts in its statement. */
export function keyIsActiveSql(keyId: unknown, now: unknown): SQL<boolean> {
  return sql<boolean>`exists (select 1 from api_keys k
    where k.id = ${keyId} and k.revoked_at is null and (k.expires_at is null or k.expires_at > ${now}))`;
}

/**
 * Whether a session is active, as an expression a read puts in its own statement: the authenticator's test
 * (not logged out, not expired) without a round trip of its own. An account's deletion request revokes its
 * sessions, and none opens after it (see `insertSession`), so the session row alone answers.
 */
export function sessionIsActiveSql(sessionId: unknown, userId: unknown, now: unknown): SQL<boolean> {
  return sql<boolean>`exists (select 1 from sessions s
    where s.id = ${sessionId} and s.user_id = ${userId} and s.revoked_at is null and s.expires_at > ${now})`;
}
