import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions } from '../../db/schema/index.ts';

/** The most sessions a list answers (the most recently used); more live at once is not a real person. */
export const SESSIONS_LISTED = 200;

const live = (userId: string, now: Date) =>
  and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now));

const lastUsed = sql<Date>`coalesce(${sessions.lastUsedAt}, ${sessions.createdAt})`;

/** The user's live sessions, most recently used first. */
export async function liveSessions(db: Db, userId: string, now: Date) {
  return db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
    })
    .from(sessions)
    .where(live(userId, now))
    .orderBy(desc(lastUsed), desc(sessions.id))
    .limit(SESSIONS_LISTED);
}

/** Ends one live session of the user; false when the user has no such live session. */
export async function endSession(db: Db, userId: string, sessionId: string, now: Date): Promise<boolean> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), live(userId, now)))
    .returning({ id: sessions.id });
  return ended.length > 0;
}
