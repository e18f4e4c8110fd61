import { and, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  chatMessageMentions,
  chatMessages,
  chatThreads,
  followUpTasks,
  invites,
  organisationInvitations,
  organisations,
  reviewReviewers,
  sessionParticipants,
  studioSessions,
  teamMembers,
  teams,
  tracks,
  trackVersions,
  users,
  versionReviews,
} from '../../db/schema/index.ts';
import { sameEmail } from '../../shared/email.ts';
import { threadVisibleSql } from '../chat/thread-access.ts';

/** Items per source: enough for any inbox a person works through; `total` still counts them all. */
export const PER_SOURCE = 100;

/** Rows past the first PER_SOURCE are still counted: every row carries the count of the whole source. */
const total = sql<number>`(count(*) over ())::int`;

const memberOf = (teamId: unknown, userId: string) =>
  sql`exists (select 1 from ${teamMembers} im where im.team_id = ${teamId} and im.user_id = ${userId}::uuid)`;

/** Open invites to the person's (verified) address from teams they are not in yet. */
export function openInvites(db: Db, userId: string, email: string, now: Date) {
  return db
    .select({
      id: invites.id,
      teamId: invites.teamId,
      teamName: teams.name,
      role: invites.role,
      expiresAt: invites.expiresAt,
      createdAt: invites.createdAt,
      invitedBy: invites.createdBy,
      total,
    })
    .from(invites)
    .innerJoin(teams, eq(teams.id, invites.teamId))
    .where(
      and(
        sameEmail(invites.email, email),
        isNull(invites.acceptedAt),
        isNull(invites.declinedAt),
        gt(invites.expiresAt, now),
        sql`not ${memberOf(invites.teamId, userId)}`,
      ),
    )
    .orderBy(desc(invites.createdAt), desc(invites.id))
    .limit(PER_SOURCE);
}

/**
 * Open invitations to organisations the person is not in yet: to their id, and to their address when it is
 * verified (`email` null otherwise).
 */
export function organisationInvitationsAwaiting(db: Db, userId: string, email: string | null, now: Date) {
  const i = organisationInvitations;
  return db
    .select({
      id: i.id,
      organisationId: i.organisationId,
      organisationName: organisations.name,
      role: i.role,
      expiresAt: i.expiresAt,
      createdAt: i.createdAt,
      invitedBy: i.createdBy,
      total,
    })
    .from(i)
    .innerJoin(organisations, eq(organisations.id, i.organisationId))
    .where(
      and(
        email === null ? eq(i.userId, userId) : or(eq(i.userId, userId), sameEmail(i.email, email)),
        isNull(i.acceptedAt),
        isNull(i.declinedAt),
        gt(i.expiresAt, now),
        sql`not exists (select 1 from organisation_members om
          where om.organisation_id = ${i.organisationId} and om.user_id = ${userId}::uuid)`,
      ),
    )
    .orderBy(desc(i.createdAt), desc(i.id))
    .limit(PER_SOURCE);
}

/** Open reviews that wait for the person's decision, on tracks they can still see. */
export function reviewsAwaiting(db: Db, userId: string) {
  return db
    .select({
      reviewId: versionReviews.id,
      trackId: tracks.id,
      trackTitle: tracks.title,
      teamId: tracks.teamId,
      versionId: trackVersions.id,
      versionName: trackVersions.name,
      requestedBy: versionReviews.requestedBy,
      createdAt: versionReviews.createdAt,
      total,
    })
    .from(reviewReviewers)
    .innerJoin(versionReviews, eq(versionReviews.id, reviewReviewers.reviewId))
    .innerJoin(trackVersions, eq(trackVersions.id, versionReviews.versionId))
    .innerJoin(tracks, eq(tracks.id, trackVersions.trackId))
    .where(
      and(
        eq(reviewReviewers.userId, userId),
        isNull(reviewReviewers.decision),
        eq(versionReviews.status, 'pending'),
        isNull(tracks.deletedAt),
        sql`exists (select 1 from track_teams tt inner join ${teamMembers} tm on tm.team_id = tt.team_id
          where tt.track_id = ${tracks.id} and tm.user_id = ${userId}::uuid)`,
      ),
    )
    .orderBy(desc(versionReviews.createdAt), desc(versionReviews.id))
    .limit(PER_SOURCE);
}

/**
 * Invitations to sessions still ahead or running that the person has not answered: to them, and to their
 * address when it is verified (`email` null otherwise).
 */
export function sessionInvitations(db: Db, userId: string, email: string | null, now: Date) {
  return db
    .select({
      participantId: sessionParticipants.id,
      sessionId: studioSessions.id,
      teamId: studioSessions.teamId,
      title: studioSessions.title,
      startsAt: studioSessions.startsAt,
      endsAt: studioSessions.endsAt,
      invitedBy: sessionParticipants.invitedBy,
      createdAt: sessionParticipants.createdAt,
      total,
    })
    .from(sessionParticipants)
    .innerJoin(studioSessions, eq(studioSessions.id, sessionParticipants.sessionId))
    .where(
      and(
        email === null
          ? eq(sessionParticipants.userId, userId)
          : sql`(${sessionParticipants.userId} = ${userId}::uuid or (${sessionParticipants.userId} is null
          and ${sameEmail(sessionParticipants.email, email)}))`,
        eq(sessionParticipants.status, 'invited'),
        inArray(studioSessions.status, ['scheduled', 'live']),
        gt(studioSessions.endsAt, now),
      ),
    )
    .orderBy(desc(sessionParticipants.createdAt), desc(sessionParticipants.id))
    .limit(PER_SOURCE);
}

/** The person's open follow-up tasks that are due, in teams they are still in. */
export function followUpsDue(db: Db, userId: string, now: Date) {
  return db
    .select({
      taskId: followUpTasks.id,
      teamId: followUpTasks.teamId,
      botId: followUpTasks.botId,
      person: followUpTasks.person,
      network: followUpTasks.network,
      dueAt: followUpTasks.dueAt,
      total,
    })
    .from(followUpTasks)
    .where(
      and(
        eq(followUpTasks.userId, userId),
        eq(followUpTasks.status, 'open'),
        lte(followUpTasks.dueAt, now),
        memberOf(followUpTasks.teamId, userId),
      ),
    )
    .orderBy(desc(followUpTasks.dueAt), desc(followUpTasks.id))
    .limit(PER_SOURCE);
}

/** Messages naming the person after their read marker, in threads they still see, not deleted. */
export function unreadMentions(db: Db, userId: string) {
  return db
    .select({
      messageId: chatMessages.id,
      threadId: chatMessages.threadId,
      threadName: chatThreads.name,
      authorId: chatMessages.authorId,
      authorName: users.name,
      createdAt: chatMessages.createdAt,
      total,
    })
    .from(chatMessageMentions)
    .innerJoin(chatMessages, eq(chatMessages.id, chatMessageMentions.messageId))
    .innerJoin(chatThreads, eq(chatThreads.id, chatMessages.threadId))
    .leftJoin(users, eq(users.id, chatMessages.authorId))
    .where(
      and(
        eq(chatMessageMentions.kind, 'user'),
        eq(chatMessageMentions.targetId, userId),
        isNull(chatMessages.deletedAt),
        sql`${chatMessages.authorId} is distinct from ${userId}::uuid`,
        sql`${chatMessages.id} > coalesce((select rm.last_read_message_id from chat_thread_members rm
          where rm.thread_id = ${chatMessages.threadId} and rm.user_id = ${userId}::uuid),
          '00000000-0000-0000-0000-000000000000'::uuid)`,
        threadVisibleSql(chatThreads.id, chatThreads.type, sql`${userId}::uuid`),
      ),
    )
    .orderBy(desc(chatMessages.id))
    .limit(PER_SOURCE);
}
