import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../../db/client.ts';
import { type Placeholders, preparedQuery } from '../../db/prepared.ts';
import { refreshTokens, sessions, users } from '../../db/schema/index.ts';
import type { SessionPrincipal } from '../../plugins/auth.ts';
import { normaliseEmail, sameEmail } from '../../shared/email.ts';
import { sessionIsActiveSql } from '../../shared/session-state.ts';

export type UserRow = typeof users.$inferSelect;

/** The user with this address, in any of its forms (see `normaliseEmail`). */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sameEmail(users.email, email)).limit(1);
  return row;
}

const userById = preparedQuery('auth_user_by_id', (db, p: Placeholders<{ id: string }>) =>
  db.select().from(users).where(eq(users.id, p.id)).limit(1),
);

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await userById(db, { id });
  return row;
}

export async function insertUser(
  db: Db | DbTransaction,
  values: {
    email: string;
    name?: string | null;
    passwordHash?: string | null;
    externalSubject?: string | null;
    /** When the address was shown to be the account's own; null (unverified) for a password sign-up. */
    emailVerifiedAt?: Date | null;
  },
): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ ...values, email: normaliseEmail(values.email) })
    .returning();
  return row!;
}

/**
 * Holds the user's row (FOR SHARE) for the rest of the transaction when the account is not scheduled for
 * deletion. A deletion request locks the row, marks it and revokes every session in one transaction, so a
 * session opened under this lock is either refused or revoked with the rest: the checks of a live session
 * (`sessionIsActiveSql`) can then trust the session row alone.
 */
async function holdLiveUser(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletionRequestedAt)))
    .for('share');
  return Boolean(row);
}

/** Opens a session with its first refresh token; undefined when the account is scheduled for deletion. */
export async function insertSession(
  db: Db,
  values: {
    userId: string;
    expiresAt: Date;
    refreshTokenHash: string;
    userAgent?: string | null;
    ip?: string | null;
  },
): Promise<string | undefined> {
  return db.transaction(async (tx) => {
    if (!(await holdLiveUser(tx, values.userId))) return undefined;
    const [session] = await tx
      .insert(sessions)
      .values({
        userId: values.userId,
        expiresAt: values.expiresAt,
        userAgent: values.userAgent,
        ip: values.ip,
      })
      .returning({ id: sessions.id });
    await tx.insert(refreshTokens).values({ tokenHash: values.refreshTokenHash, sessionId: session!.id });
    return session!.id;
  });
}

export async function findRefreshToken(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      sessionId: refreshTokens.sessionId,
      usedAt: refreshTokens.usedAt,
      userId: sessions.userId,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
    })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/** Spends a refresh token and stores its successor; false when it was already spent (a re-use). */
export async function rotateRefreshToken(
  db: Db,
  spentHash: string,
  nextHash: string,
  sessionId: string,
  now: Date,
  ip: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const spent = await tx
      .update(refreshTokens)
      .set({ usedAt: now })
      .where(and(eq(refreshTokens.tokenHash, spentHash), isNull(refreshTokens.usedAt)))
      .returning({ tokenHash: refreshTokens.tokenHash });
    if (spent.length === 0) return false;
    await tx.insert(refreshTokens).values({ tokenHash: nextHash, sessionId });
    await tx.update(sessions).set({ lastUsedAt: now, ip }).where(eq(sessions.id, sessionId));
    return true;
  });
}

export async function revokeSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeUserSessions(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

const sessionActive = preparedQuery(
  'auth_session_active',
  (db, p: Placeholders<{ sessionId: string; userId: string; now: Date }>) =>
    db
      .select({ id: sessions.id })
      .from(sessions)
      .where(
        and(
          eq(sessions.id, p.sessionId),
          eq(sessions.userId, p.userId),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, p.now),
        ),
      )
      .limit(1),
);

/** True while the session is neither revoked nor expired (a deletion request revokes every session of the user). */
export async function isSessionActive(
  db: Db,
  sessionId: string,
  userId: string,
  now: Date,
): Promise<boolean> {
  const [row] = await sessionActive(db, { sessionId, userId, now });
  return Boolean(row);
}

type Membership = { id: number; name: string; role: 'owner' | 'admin' | 'member' };
// Each team's name by its primary key: a join lets the planner of the statement's generic plan, which
// guesses hundreds of teams per user, read the whole teams table for a member of one.
const membershipsJson = sql<Membership[]>`(select coalesce(json_agg(json_build_object(
    'id', m.team_id, 'name', (select t.name from teams t where t.id = m.team_id), 'role', m.role)
    order by m.team_id), '[]'::json)
  from team_members m where m.user_id = "users"."id")`;

type SessionRead = { userId: string; sessionId: string; now: Date };
const meForSession = preparedQuery('auth_me_for_session', (db, p: Placeholders<SessionRead>) =>
  db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      createdAt: users.createdAt,
      emailVerified: sql<boolean>`${users.emailVerifiedAt} is not null`,
      teams: membershipsJson,
      callerActive: sessionIsActiveSql(p.sessionId, p.userId, p.now),
    })
    .from(users)
    .where(eq(users.id, p.userId))
    .limit(1),
);

/** The session's user with their teams and roles, and whether the session is active, in one statement. */
export async function readMe(db: Db, session: SessionPrincipal, now: Date) {
  const [row] = await meForSession(db, { userId: session.userId, sessionId: session.sessionId, now });
  return row;
}

export async function findUserByExternalSubject(
  db: Db,
  externalSubject: string,
): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.externalSubject, externalSubject)).limit(1);
  return row;
}

/** Links an account that is not linked yet; false when it already is (to this or another subject). */
/** Links the provider's subject to the account; the provider vouched for the address, so it is verified. */
export async function linkExternalSubject(
  db: Db,
  userId: string,
  externalSubject: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({
      externalSubject,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(and(eq(users.id, userId), isNull(users.externalSubject)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/**
 * Records the session of a provider token, once: a session revoked meanwhile stays revoked, and none opens
 * for an account scheduled for deletion.
 */
export async function ensureSession(
  db: Db,
  values: { id: string; userId: string; expiresAt: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    if (await holdLiveUser(tx, values.userId))
      await tx.insert(sessions).values(values).onConflictDoNothing({ target: sessions.id });
  });
}
