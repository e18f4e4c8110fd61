import { randomUUID } from 'node:crypto';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  chatMessageMentions,
  chatMessages,
  chatThreads,
  invites,
  type NotificationKind,
  organisationMembers,
  sessionParticipants,
  teamMembers,
  tracks,
  trackTeams,
  users,
  versionComments,
  versionReviews,
} from '../../db/schema/index.ts';
import { parseMentions } from '../chat/messages/mentions.ts';
import { threadVisibleSql } from '../chat/thread-access.ts';

/** One activity entry as it is written: what the rules read notifications from. */
export type ActivityFact = {
  /** The team whose activity it is; null for an organisation's own change (then `organisationId`). */
  teamId: number | null;
  organisationId?: number | null;
  actorUserId: string | null;
  action: string;
  subjectType: string;
  subjectId: string;
  data: Record<string, unknown>;
};

export type NotificationDraft = {
  userId: string;
  kind: NotificationKind;
  /** Shown only while the person belongs to this team (or organisation); null for both: about the person. */
  teamId: number | null;
  organisationId: number | null;
  actorUserId: string | null;
  subjectType: string;
  subjectId: string;
  data: Record<string, unknown>;
  dedupeKey: string;
};

type Rule = (tx: Db, fact: ActivityFact) => Promise<NotificationDraft[]>;

const numberOf = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** A draft about `fact`'s subject, scoped to its team. */
function about(
  fact: ActivityFact,
  userId: string,
  kind: NotificationKind,
  data: Record<string, unknown>,
  dedupeKey: string,
): NotificationDraft {
  return {
    userId,
    kind,
    teamId: fact.teamId,
    organisationId: null,
    actorUserId: fact.actorUserId,
    subjectType: fact.subjectType,
    subjectId: fact.subjectId,
    data,
    dedupeKey,
  };
}

/**
 * Drafts about a track go out under a team of the track that their person is in (its own team, or one it is
 * shared with), so each person sees them while they can see the track; people in none are left out.
 */
async function throughTrackTeams(tx: Db, trackId: number, drafts: NotificationDraft[]) {
  if (drafts.length === 0) return drafts;
  const rows = await tx
    .select({ userId: teamMembers.userId, teamId: sql<number>`min(${trackTeams.teamId})` })
    .from(trackTeams)
    .innerJoin(teamMembers, eq(teamMembers.teamId, trackTeams.teamId))
    .where(
      and(
        eq(trackTeams.trackId, trackId),
        inArray(
          teamMembers.userId,
          drafts.map((d) => d.userId),
        ),
      ),
    )
    .groupBy(teamMembers.userId);
  const teamOf = new Map(rows.map((r) => [r.userId, Number(r.teamId)]));
  return drafts.flatMap((d) => {
    const teamId = teamOf.get(d.userId);
    return teamId === undefined ? [] : [{ ...d, teamId }];
  });
}

/** The people a comment's text mentions (`@[label](user:id)`, as in chat). */
async function mentionedInComment(tx: Db, commentId: number): Promise<string[]> {
  const [comment] = await tx
    .select({ body: versionComments.body })
    .from(versionComments)
    .where(eq(versionComments.id, commentId));
  if (!comment) return [];
  return parseMentions(comment.body).flatMap((m) => (m.kind === 'user' ? [m.targetId] : []));
}

const commentData = (fact: ActivityFact, trackId: number) => ({
  trackId,
  versionId: fact.data.versionId,
  commentId: Number(fact.subjectId),
  parentId: numberOf(fact.data.parentId),
});

/**
 * A comment on a version: the people it mentions hear of that, then (if not mentioned) its track's creator
 * of the comment and, for a reply, the parent comment's author of the reply.
 */
const commentCreated: Rule = async (tx, fact) => {
  const trackId = numberOf(fact.data.trackId);
  const parentId = numberOf(fact.data.parentId);
  if (trackId === null) return [];
  const [row] = await tx
    .select({
      trackOwner: tracks.createdBy,
      parentAuthor:
        parentId === null
          ? sql<string | null>`null`
          : sql<string | null>`(select created_by
        from version_comments where id = ${parentId})`,
    })
    .from(tracks)
    .where(eq(tracks.id, trackId));
  if (!row) return [];
  const data = commentData(fact, trackId);
  const mentioned = await mentionedInComment(tx, data.commentId);
  const drafts = mentioned.map((userId) =>
    about(fact, userId, 'mention', data, `mention:comment:${fact.subjectId}`),
  );
  const told = new Set(mentioned);
  const key = `comment:${fact.subjectId}`;
  if (row.parentAuthor && !told.has(row.parentAuthor)) {
    drafts.push(about(fact, row.parentAuthor, 'reply', data, key));
    told.add(row.parentAuthor);
  }
  if (row.trackOwner && !told.has(row.trackOwner))
    drafts.push(about(fact, row.trackOwner, 'comment', data, key));
  return throughTrackTeams(tx, trackId, drafts);
};

/** An edited comment tells the people it now mentions who were not told before. */
const commentUpdated: Rule = async (tx, fact) => {
  const trackId = numberOf(fact.data.trackId);
  if (trackId === null) return [];
  const data = commentData(fact, trackId);
  const mentioned = await mentionedInComment(tx, data.commentId);
  const key = `mention:comment:${fact.subjectId}`;
  return throughTrackTeams(
    tx,
    trackId,
    mentioned.map((userId) => about(fact, userId, 'mention', data, key)),
  );
};
/** A resolved comment tells its author (never the person who resolved it: delivery leaves the actor out). */
const commentResolved: Rule = async (tx, fact) => {
  const trackId = numberOf(fact.data.trackId);
  if (trackId === null) return [];
  const [comment] = await tx
    .select({ authorId: versionComments.createdBy, parentId: versionComments.parentId })
    .from(versionComments)
    .where(eq(versionComments.id, Number(fact.subjectId)));
  if (!comment?.authorId) return [];
  const data = { ...commentData(fact, trackId), parentId: comment.parentId };
  const key = `comment_resolved:${fact.subjectId}:${randomUUID()}`;
  return throughTrackTeams(tx, trackId, [about(fact, comment.authorId, 'comment_resolved', data, key)]);
};

const reviewRequested: Rule = async (tx, fact) => {
  const reviewerIds = Array.isArray(fact.data.reviewerIds) ? (fact.data.reviewerIds as string[]) : [];
  const trackId = numberOf(fact.data.trackId);
  if (trackId === null) return [];
  const data = { trackId, versionId: fact.data.versionId, reviewId: Number(fact.subjectId) };
  const drafts = reviewerIds.map((userId) =>
    about(fact, userId, 'review_requested', data, `review_requested:${fact.subjectId}`),
  );
  return throughTrackTeams(tx, trackId, drafts);
};

/** Each reviewer's decision tells whoever asked for the review. */
const reviewDecided: Rule = async (tx, fact) => {
  const [review] = await tx
    .select({ requestedBy: versionReviews.requestedBy })
    .from(versionReviews)
    .where(eq(versionReviews.id, Number(fact.subjectId)));
  if (!review?.requestedBy) return [];
  const data = {
    trackId: fact.data.trackId,
    versionId: fact.data.versionId,
    reviewId: Number(fact.subjectId),
    decision: fact.data.decision,
  };
  const key = `review_decided:${fact.subjectId}:${fact.actorUserId}`;
  return throughTrackTeams(tx, Number(fact.data.trackId), [
    about(fact, review.requestedBy, 'review_decided', data, key),
  ]);
};

/**
 * An invited participant: the user it names, or the account with the invited address once that address is
 * verified (the address alone proves nothing before).
 */
const participantInvited: Rule = async (tx, fact) => {
  const participantId = numberOf(fact.data.participantId);
  if (participantId === null) return [];
  const [row] = await tx
    .select({ userId: sql<string | null>`coalesce(${sessionParticipants.userId}, ${users.id})` })
    .from(sessionParticipants)
    .leftJoin(
      users,
      sql`lower(${users.email}) = lower(${sessionParticipants.email}) and ${users.emailVerifiedAt} is not null`,
    )
    .where(eq(sessionParticipants.id, participantId))
    .limit(1);
  if (!row?.userId) return [];
  const draft = about(
    fact,
    row.userId,
    'session_invitation',
    { sessionId: Number(fact.subjectId), participantId },
    `session_invitation:${participantId}`,
  );
  return [{ ...draft, teamId: null }];
};

/** People a message names who see its thread; an edit that adds a name tells that person then. */
const messageMentions: Rule = async (tx, fact) => {
  const messageId = fact.subjectId;
  const rows = await tx
    .select({ userId: chatMessageMentions.targetId, threadId: chatMessages.threadId })
    .from(chatMessageMentions)
    .innerJoin(chatMessages, eq(chatMessages.id, chatMessageMentions.messageId))
    .innerJoin(chatThreads, eq(chatThreads.id, chatMessages.threadId))
    .where(
      and(
        eq(chatMessageMentions.messageId, messageId),
        eq(chatMessageMentions.kind, 'user'),
        sql`${chatMessages.deletedAt} is null`,
        threadVisibleSql(chatThreads.id, chatThreads.type, sql`${chatMessageMentions.targetId}::uuid`),
      ),
    );
  return rows.map(({ userId, threadId }) =>
    about(fact, userId, 'mention', { threadId, messageId }, `mention:${messageId}`),
  );
};

/** A changed camp answer tells the organisation's owners and admins. */
const campRsvpUpdated: Rule = async (tx, fact) => {
  const organisationId = fact.organisationId ?? null;
  if (organisationId === null) return [];
  const managers = await tx
    .select({ userId: organisationMembers.userId })
    .from(organisationMembers)
    .where(
      and(
        eq(organisationMembers.organisationId, organisationId),
        inArray(organisationMembers.role, ['owner', 'admin']),
        fact.actorUserId ? ne(organisationMembers.userId, fact.actorUserId) : undefined,
      ),
    );
  const data = {
    organisationId,
    campId: Number(fact.subjectId),
    userId: fact.data.userId,
    status: fact.data.status,
  };
  // Every change is news, even back to an earlier answer.
  const key = `camp_rsvp:${fact.subjectId}:${randomUUID()}`;
  return managers.map(({ userId }) => ({
    ...about(fact, userId, 'camp_rsvp', data, key),
    teamId: null,
    organisationId,
  }));
};

/**
 * A paused webhook endpoint tells the owners and admins of its team or organisation, but not the person whose
 * departure paused it.
 */
const webhookPaused: Rule = async (tx, fact) => {
  const organisationId = fact.organisationId ?? null;
  const registrant = typeof fact.data.registrantId === 'string' ? fact.data.registrantId : null;
  const members = organisationId === null ? teamMembers : organisationMembers;
  const managers = await tx
    .select({ userId: members.userId })
    .from(members)
    .where(
      and(
        organisationId === null
          ? eq(teamMembers.teamId, fact.teamId ?? 0)
          : eq(organisationMembers.organisationId, organisationId),
        inArray(members.role, ['owner', 'admin']),
        registrant ? ne(members.userId, registrant) : undefined,
      ),
    );
  const data = { endpointId: Number(fact.subjectId), reason: fact.data.reason, url: fact.data.url };
  const key = `webhook_paused:${fact.subjectId}:${randomUUID()}`;
  return managers.map(({ userId }) => ({
    ...about(fact, userId, 'webhook_paused', data, key),
    organisationId,
  }));
};

/** An invite to a team reaches the account that has the invited address, if there is one yet and it is verified. */
const inviteCreated: Rule = async (tx, fact) => {
  const inviteId = Number(fact.subjectId);
  const [row] = await tx
    .select({ userId: users.id })
    .from(invites)
    .innerJoin(
      users,
      sql`lower(${users.email}) = lower(${invites.email}) and ${users.emailVerifiedAt} is not null`,
    )
    .where(eq(invites.id, inviteId));
  if (!row) return [];
  const draft = about(
    fact,
    row.userId,
    'team_invite',
    { teamId: fact.teamId, inviteId },
    `team_invite:${inviteId}`,
  );
  return [{ ...draft, teamId: null }];
};

/** Rules by `subjectType/action` of the activity entry. */
export const NOTIFICATION_RULES: ReadonlyMap<string, Rule> = new Map([
  ['comment/comment.created', commentCreated],
  ['comment/comment.updated', commentUpdated],
  ['comment/comment.resolved', commentResolved],
  ['review/review.requested', reviewRequested],
  ['review/review.decided', reviewDecided],
  ['session/session.participant.invited', participantInvited],
  ['chat_message/created', messageMentions],
  ['chat_message/edited', messageMentions],
  ['camp/camp.rsvp.updated', campRsvpUpdated],
  ['team_invite/invite.created', inviteCreated],
  ['webhook_endpoint/webhook.paused', webhookPaused],
]);
