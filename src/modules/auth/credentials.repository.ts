import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { sameEmail } from '../../shared/email.ts';

type Executor = Db | DbTransaction;

/** The account's row, locked for the rest of the transaction; undefined when gone or scheduled for deletion. */
export async function lockLiveUser(tx: DbTransaction, userId: string) {
  const [row] = await tx
    .select({ id: users.id, email: users.email, emailVerifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletionRequestedAt)))
    .for('update');
  return row;
}

/** Whether an account other than `userId` has this address (in any of its forms). */
export async function emailTakenByOther(db: Executor, email: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sameEmail(users.email, email), ne(users.id, userId)))
    .limit(1);
  return Boolean(row);
}

/** Marks the address verified (keeping the first time it was). */
export async function markEmailVerified(tx: Executor, userId: string, now: Date): Promise<void> {
  await tx
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)` })
    .where(eq(users.id, userId));
}

/** Moves the account to a new, verified address. */
export async function setEmail(tx: Executor, userId: string, email: string, now: Date): Promise<void> {
  await tx.update(users).set({ email, emailVerifiedAt: now, updatedAt: now }).where(eq(users.id, userId));
}

/** Stores a new password hash; `verified` also marks the address verified (a reset read mail there). */
export async function setPasswordHash(
  tx: Executor,
  userId: string,
  passwordHash: string,
  now: Date,
  verified: boolean,
): Promise<void> {
  await tx
    .update(users)
    .set({
      passwordHash,
      updatedAt: now,
      ...(verified
        ? { emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)` }
        : {}),
    })
    .where(eq(users.id, userId));
}

/** Ends every live session of the user but `keepSessionId` (signing out everywhere else); answers how many ended. */
export async function revokeOtherSessions(
  tx: Executor,
  userId: string,
  keepSessionId: string,
  now: Date,
): Promise<number> {
  const ended = await tx
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.userId, userId),
        ne(sessions.id, keepSessionId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    )
    .returning({ id: sessions.id });
  return ended.length;
}
