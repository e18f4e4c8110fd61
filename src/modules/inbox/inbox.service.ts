import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { addressOf } from '../../shared/own-address.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import * as repo from './inbox.repository.ts';

type Action = { method: 'GET' | 'POST' | 'DELETE'; path: string };
const get = (path: string): Action => ({ method: 'GET', path });
const post = (path: string): Action => ({ method: 'POST', path });

const countOf = (rows: { total: number }[]) => rows[0]?.total ?? 0;

/**
 * What waits for the person's action, across teams, worked out from the things themselves at each read:
 * an item leaves the inbox as soon as it is acted on (the invite answered, the review decided, the session
 * answered, the follow-up done or deleted, the mention read).
 */
export class InboxService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async get(principal: Principal) {
    const userId = sessionUserId(principal);
    const own = await addressOf(this.db, userId);
    if (own === undefined) throw errors.notFound('user');
    // What is matched by the address alone goes to a verified address only.
    const email = own.verified ? own.email : null;
    const now = this.clock.now();
    const invites = email === null ? [] : await repo.openInvites(this.db, userId, email, now);
    const organisationInvitations = await repo.organisationInvitationsAwaiting(this.db, userId, email, now);
    const reviews = await repo.reviewsAwaiting(this.db, userId);
    const sessions = await repo.sessionInvitations(this.db, userId, email, now);
    const followUps = await repo.followUpsDue(this.db, userId, now);
    const mentions = await repo.unreadMentions(this.db, userId);
    const items = [
      ...invites.map((i) => ({
        kind: 'team_invite' as const,
        id: `team_invite:${i.id}`,
        at: i.createdAt,
        teamId: i.teamId,
        title: i.teamName,
        data: {
          inviteId: i.id,
          teamId: i.teamId,
          role: i.role,
          invitedBy: i.invitedBy,
          expiresAt: i.expiresAt,
        },
        actions: {
          accept: post(`/api/v1/user/invites/${i.id}/accept`),
          decline: post(`/api/v1/user/invites/${i.id}/decline`),
        },
      })),
      ...organisationInvitations.map((i) => ({
        kind: 'organisation_invitation' as const,
        id: `organisation_invitation:${i.id}`,
        at: i.createdAt,
        teamId: null,
        title: i.organisationName,
        data: {
          invitationId: i.id,
          organisationId: i.organisationId,
          role: i.role,
          invitedBy: i.invitedBy,
          expiresAt: i.expiresAt,
        },
        actions: {
          accept: post(`/api/v1/user/organisation-invitations/${i.id}/accept`),
          decline: post(`/api/v1/user/organisation-invitations/${i.id}/decline`),
        },
      })),
      ...reviews.map((r) => ({
        kind: 'review_request' as const,
        id: `review_request:${r.reviewId}`,
        at: r.createdAt,
        teamId: r.teamId,
        title: `${r.trackTitle} – ${r.versionName}`,
        data: {
          reviewId: r.reviewId,
          trackId: r.trackId,
          versionId: r.versionId,
          requestedBy: r.requestedBy,
        },
        actions: {
          open: get(`/api/v1/tracks/${r.trackId}/versions/${r.versionId}`),
          decide: post(`/api/v1/tracks/${r.trackId}/versions/${r.versionId}/review/decide`),
        },
      })),
      ...sessions.map((s) => ({
        kind: 'session_invitation' as const,
        id: `session_invitation:${s.participantId}`,
        at: s.createdAt,
        teamId: s.teamId,
        title: s.title,
        data: {
          sessionId: s.sessionId,
          participantId: s.participantId,
          startsAt: s.startsAt,
          endsAt: s.endsAt,
          invitedBy: s.invitedBy,
        },
        actions: {
          open: get(`/api/v1/sessions/${s.sessionId}`),
          respond: post(`/api/v1/sessions/${s.sessionId}/respond`),
        },
      })),
      ...followUps.map((f) => ({
        kind: 'follow_up_due' as const,
        id: `follow_up_due:${f.taskId}`,
        at: f.dueAt!,
        teamId: f.teamId,
        title: f.person,
        data: { taskId: f.taskId, botId: f.botId, network: f.network, dueAt: f.dueAt },
        actions: {
          open: get(`/api/v1/chat/bots/${f.botId}/follow-ups?teamId=${f.teamId}`),
          done: {
            method: 'DELETE' as const,
            path: `/api/v1/chat/bots/${f.botId}/follow-ups/${f.taskId}?teamId=${f.teamId}`,
          },
        },
      })),
      ...mentions.map((m) => ({
        kind: 'mention' as const,
        id: `mention:${m.messageId}`,
        at: m.createdAt,
        teamId: null,
        title: m.authorName ?? m.threadName ?? 'Mention',
        data: { threadId: m.threadId, messageId: m.messageId, authorId: m.authorId },
        actions: {
          open: get(`/api/v1/chat/threads/${m.threadId}/messages`),
          markRead: post(`/api/v1/chat/threads/${m.threadId}/read`),
        },
      })),
    ].sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1));
    const counts = {
      invites: countOf(invites),
      organisationInvitations: countOf(organisationInvitations),
      reviews: countOf(reviews),
      sessions: countOf(sessions),
      followUps: countOf(followUps),
      mentions: countOf(mentions),
    };
    const sum = Object.values(counts).reduce((a, b) => a + b, 0);
    return { items, counts: { ...counts, total: sum } };
  }
}
