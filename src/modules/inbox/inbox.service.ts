import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { isKeyInstant, isKeyInt } from '../../shared/cursor-values.ts';
import { errors } from '../../shared/errors.ts';
import { addressOf } from '../../shared/own-address.ts';
import { decodeCursor, toPage } from '../../shared/pagination.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import { isUuid } from '../chat/ids.ts';
import * as repo from './inbox.repository.ts';
import { INBOX_KINDS, type InboxKey, type InboxKind, type SourcePage } from './inbox.repository.ts';

type Action = { method: 'GET' | 'POST' | 'DELETE'; path: string };
const get = (path: string): Action => ({ method: 'GET', path });
const post = (path: string): Action => ({ method: 'POST', path });

const countOf = (rows: { total: number }[]) => rows[0]?.total ?? 0;

/** Kinds whose items are named by a UUID (the others by an integer id). */
const UUID_KINDS = new Set<InboxKind>(['follow_up_due', 'mention']);

const isInboxKey = (value: unknown): value is InboxKey =>
  Array.isArray(value) &&
  value.length === 3 &&
  isKeyInstant(value[0]) &&
  INBOX_KINDS.includes(value[1]) &&
  (UUID_KINDS.has(value[1]) ? isUuid(value[2]) : isKeyInt(value[2]) && value[2] > 0);

type Keyed = { at: Date; kind: InboxKind; key: number | string };

/** The inbox's order: newest first, then by kind and id, both descending (one order across sources). */
function newestFirst(a: Keyed, b: Keyed): number {
  return (
    b.at.getTime() - a.at.getTime() ||
    (a.kind === b.kind ? 0 : a.kind < b.kind ? 1 : -1) ||
    (a.key === b.key ? 0 : a.key < b.key ? 1 : -1)
  );
}

type Page = { limit: number; cursor?: string | undefined; count?: boolean };

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

  /**
   * A keyset page of what waits for the person: every source reads up to `limit + 1` items after the cursor,
   * the merge keeps the first `limit + 1`, so the page and whether another follows are exact. `counts` are
   * those of the whole inbox on every page.
   */
  async get(principal: Principal, page: Page = { limit: 50 }) {
    const userId = sessionUserId(principal);
    const own = await addressOf(this.db, userId);
    if (own === undefined) throw errors.notFound('user');
    // What is matched by the address alone goes to a verified address only.
    const email = own.verified ? own.email : null;
    const now = this.clock.now();
    const after = decodeCursor(page.cursor, isInboxKey);
    const read = (source: SourcePage) => this.read(userId, email, now, source);
    const found = await read({ after, limit: page.limit + 1 });
    // After a cursor the rows count only what follows it: the counts come from a first page then.
    const whole = after === undefined ? found : await read({ limit: 1 });
    const { invites, organisationInvitations, reviews, sessions, followUps, mentions } = found;
    const items = [
      ...invites.map((i) => ({
        kind: 'team_invite' as const,
        key: i.id,
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
        key: i.id,
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
        key: r.reviewId,
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
        key: s.participantId,
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
        key: f.taskId,
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
        key: m.messageId,
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
    ]
      .sort(newestFirst)
      .slice(0, page.limit + 1);
    const result = toPage(
      items,
      page.limit,
      (last): InboxKey => [last.at.toISOString(), last.kind, last.key],
    );
    const counts = {
      invites: countOf(whole.invites),
      organisationInvitations: countOf(whole.organisationInvitations),
      reviews: countOf(whole.reviews),
      sessions: countOf(whole.sessions),
      followUps: countOf(whole.followUps),
      mentions: countOf(whole.mentions),
    };
    const sum = Object.values(counts).reduce((a, b) => a + b, 0);
    return {
      items: result.items.map(({ key: _, ...item }) => item),
      nextCursor: result.nextCursor,
      counts: { ...counts, total: sum },
      ...(page.count ? { total: sum } : {}),
    };
  }

  /** Every source of the inbox, one after the other, each with the same page. */
  private async read(userId: string, email: string | null, now: Date, page: SourcePage) {
    return {
      invites: email === null ? [] : await repo.openInvites(this.db, userId, email, now, page),
      organisationInvitations: await repo.organisationInvitationsAwaiting(this.db, userId, email, now, page),
      reviews: await repo.reviewsAwaiting(this.db, userId, page),
      sessions: await repo.sessionInvitations(this.db, userId, email, now, page),
      followUps: await repo.followUpsDue(this.db, userId, now, page),
      mentions: await repo.unreadMentions(this.db, userId, page),
    };
  }
}
