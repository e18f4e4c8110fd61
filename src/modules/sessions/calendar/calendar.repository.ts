import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  sessionCalendarFeeds as feeds,
  studioSessions as sessions,
  studios,
  teamMembers,
  teams,
} from '../../../db/schema/index.ts';

/** The version of the member's feed of the team, made (version 1) on first use. */
export async function feedVersion(db: Db, teamId: number, userId: string): Promise<number> {
  await db.insert(feeds).values({ teamId, userId }).onConflictDoNothing();
  const [row] = await db
    .select({ version: feeds.version })
    .from(feeds)
    .where(and(eq(feeds.teamId, teamId), eq(feeds.userId, userId)));
  return row!.version;
}

/** A new version of the member's feed: every URL of the versions before stops working. */
export async function rotateFeed(db: Db, teamId: number, userId: string, now: Date): Promise<number> {
  const [row] = await db
    .insert(feeds)
    .values({ teamId, userId, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [feeds.teamId, feeds.userId],
      set: { version: sql`${feeds.version} + 1`, updatedAt: now },
    })
    .returning({ version: feeds.version });
  return row!.version;
}

/** The team's name when this version of the member's feed is current and they are still in the team. */
export async function activeFeed(
  db: Db,
  feed: { teamId: number; userId: string; version: number },
): Promise<{ teamName: string } | undefined> {
  const [row] = await db
    .select({ teamName: teams.name })
    .from(feeds)
    .innerJoin(teams, eq(teams.id, feeds.teamId))
    .innerJoin(teamMembers, and(eq(teamMembers.teamId, feeds.teamId), eq(teamMembers.userId, feeds.userId)))
    .where(
      and(eq(feeds.teamId, feed.teamId), eq(feeds.userId, feed.userId), eq(feeds.version, feed.version)),
    );
  return row;
}

/** The team's sessions that start from `since` on, earliest first, with the name of their studio. */
export function feedSessions(db: Db, teamId: number, since: Date, limit: number) {
  return db
    .select({
      id: sessions.id,
      title: sessions.title,
      startsAt: sessions.startsAt,
      endsAt: sessions.endsAt,
      status: sessions.status,
      notes: sessions.notes,
      studioName: studios.name,
      createdAt: sessions.createdAt,
      updatedAt: sessions.updatedAt,
    })
    .from(sessions)
    .leftJoin(studios, eq(studios.id, sessions.studioId))
    .where(and(eq(sessions.teamId, teamId), gte(sessions.startsAt, since)))
    .orderBy(asc(sessions.startsAt), asc(sessions.id))
    .limit(limit);
}

export type FeedSession = Awaited<ReturnType<typeof feedSessions>>[number];
