import { and, desc, eq, gt, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
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

/** The kinds of inbox items, each read from its own source. */
export const INBOX_KINDS = [
  'team_invite',
  'organisation_invitation',
  'review_request',
  'session_invitation',
  'follow_up_due',
  'mention',
] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

/**
 * Where a page of the inbox ends: `[at, kind, id]` of its last item. Items come newest first by `at`, then by
 * kind and id, both descending (ids are integers, or UUIDs for follow-ups and mentions).
 */
export type InboxKey = [at: string, kind: InboxKind, id: number | string];

/** What one source reads: up to `limit` rows after `after` in the inbox's order. */
export type SourcePage = { after?: InboxKey | undefined; limit: number };
const FIRST_PAGE: SourcePage = { limit: 51 };

/** Every row carries the count of its source's rows (after the cursor, when there is one). */
const total = sql<number>`(count(*) over ())::int`;

/**
 * SQL: the rows of source `kind` that come after `after` in the inbox's order `(at, kind, id)` descending.
 * Within one source the kind is fixed, so the comparison reduces to one on `(at, id)`.
 */
function afterKey(
  kind: InboxKind,
  at: AnyPgColumn | SQL,
  id: AnyPgColumn,
  after: InboxKey | undefined,
): SQL | undefined {
  if (!after) return undefined;
  const [afterAt, afterKind, afterId] = after;
  if (kind < afterKind) return sql`${at} <= ${afterAt}::timestamptz`;
  if (kind > afterKind) return sql`${at} < ${afterAt}::timestamptz`;
  const idType = typeof afterId === 'number' ? sql.raw('integer') : sql.raw('uuid');
  return sql`(${at}, ${id}) < (${afterAt}::timestamptz, ${afterId}::${idType})`;
}

const memberOf = (teamId: unknown, userId: string) =>
  sql`exists (select 1 from ${teamMembers} im where im.team_id = ${teamId} and im.user_id = ${userId}::uuid)`;

// Invites are stamped in microseconds: the inbox orders (and its cursors hold) milliseconds.
const invitedAt = sql`date_trunc('milliseconds', ${invites.createdAt})`;

/** Open invites to the person's (verified) address from teams they are not in yet. */
export function openInvites(db: Db, userId: string, email: string, now: Date, page = FIRST_PAGE) {
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
        afterKey('team_invite', invitedAt, invites.id, page.after),
      ),
    )
    .orderBy(desc(invitedAt), desc(invites.id))
    .limit(page.limit);
}

/**
 * Open invitations to organisations the person is not in yet: to their id, and to their address when it is
 * verified (`email` null otherwise).
 */
export function organisationInvitationsAwaiting(
  db: Db,
  userId: string,
  email: string | null,
  now: Date,
  page = FIRST_PAGE,
) {
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
        afterKey('organisation_invitation', i.createdAt, i.id, page.after),
      ),
    )
    .orderBy(desc(i.createdAt), desc(i.id))
    .limit(page.limit);
}

/** Open reviews that wait for the person's decision, on tracks they can still see. */
export function reviewsAwaiting(db: Db, userId: string, page = FIRST_PAGE) {
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
        afterKey('review_request', versionReviews.createdAt, versionReviews.id, page.after),
      ),
    )
    .orderBy(desc(versionReviews.createdAt), desc(versionReviews.id))
    .limit(page.limit);
}

/**
 * Invitations to sessions still ahead or running that the person has not answered: to them, and to their
 * address when it is verified (`email` null otherwise).
 */
export function sessionInvitations(
  db: Db,
  userId: string,
  email: string | null,
  now: Date,
  page = FIRST_PAGE,
) {
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
        afterKey('session_invitation', sessionParticipants.createdAt, sessionParticipants.id, page.after),
      ),
    )
    .orderBy(desc(sessionParticipants.createdAt), desc(sessionParticipants.id))
    .limit(page.limit);
}

/** The person's open follow-up tasks that are due, in teams they are still in. */
export function followUpsDue(db: Db, userId: string, now: Date, page = FIRST_PAGE) {
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
        afterKey('follow_up_due', followUpTasks.dueAt, followUpTasks.id, page.after),
      ),
    )
    .orderBy(desc(followUpTasks.dueAt), desc(followUpTasks.id))
    .limit(page.limit);
}

/** Messages naming the person after their read marker, in threads they still see, not deleted. */
export function unreadMentions(db: Db, userId: string, page = FIRST_PAGE) {
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
        afterKey('mention', chatMessages.createdAt, chatMessages.id, page.after),
      ),
    )
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(page.limit);
}
