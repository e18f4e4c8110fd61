import type { Db } from '../../../db/client.ts';
import { NO_ACTOR } from '../../../events/actor.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Clock } from '../../../shared/clock.ts';
import { isKeyInt } from '../../../shared/cursor-values.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import type { RateLimits } from '../../../shared/rate-limits.ts';
import type { CommentEventData } from '../../tracks/comments/comment-events.ts';
import { insertComment } from '../../tracks/comments/comments.repository.ts';
import { guestErrors } from './guest.errors.ts';
import type { Entry, GuestAccess } from './guest-access.ts';
import * as activity from './guest-activity.repository.ts';
import * as repo from './guest-comments.repository.ts';

/** Comments a guest may write through one link from one client per window. */
export const GUEST_COMMENT_LIMIT = { name: 'share_comment', points: 30, seconds: 60 * 60 } as const;

export type GuestCommentInput = { name: string; body: string; timestampSeconds: number; versionId?: number };

const isCursor = (v: unknown): v is [number, number] =>
  Array.isArray(v) && v.length === 2 && isKeyInt(v[0]) && isKeyInt(v[1]);

/** A comment as a guest sees it: who wrote it is a name, a guest's or a team member's. */
function guestCommentView({ guestName, userName, threadKey: _t, ...row }: repo.GuestCommentRow) {
  return {
    ...row,
    author:
      guestName !== null
        ? { kind: 'guest' as const, name: guestName }
        : { kind: 'team' as const, name: userName },
  };
}

/**
 * Comments through review links: a guest's comment is an ordinary comment of the version with no author,
 * plus the name the guest gave, so the team sees it (and hears of it) with its other comments.
 */
export class GuestCommentsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly access: GuestAccess,
    private readonly events: EventLog,
    private readonly limits: RateLimits,
  ) {}

  async list(
    token: string,
    guestToken: string | undefined,
    page: { limit: number; cursor?: string | undefined },
  ) {
    const { wayIn } = await this.access.enter(token, guestToken);
    const rows = await repo.listGuestComments(
      this.db,
      wayIn.link.id,
      page.limit + 1,
      decodeCursor(page.cursor, isCursor),
    );
    const { items, nextCursor } = toPage(rows, page.limit, (last) => [last.threadKey, last.id]);
    return { items: items.map(guestCommentView), nextCursor };
  }

  async create(token: string, guestToken: string | undefined, input: GuestCommentInput, client: string) {
    const entry = await this.access.enter(token, guestToken);
    const { wayIn } = entry;
    const { link } = wayIn;
    if (!link.allowComments) throw guestErrors.commentsNotAllowed();
    const item = versionFor(entry, input);
    const taken = await this.limits.consume(
      GUEST_COMMENT_LIMIT.name,
      `${link.id}:${client}`,
      GUEST_COMMENT_LIMIT.points,
      GUEST_COMMENT_LIMIT.seconds,
    );
    if (!taken.allowed) throw errors.rateLimited(taken.resetSeconds);
    const now = this.clock.now();
    const name = input.name.trim();
    const body = input.body.trim();
    const commentId = await this.db.transaction(async (tx) => {
      const fields = { versionId: item.version.id, parentId: null, atSeconds: input.timestampSeconds, body };
      const id = await insertComment(tx, fields, NO_ACTOR, now);
      await repo.insertGuestComment(tx, {
        commentId: id,
        linkId: link.id,
        recipientId: wayIn.recipientId,
        name,
      });
      await activity.recordComment(
        tx,
        { linkId: link.id, recipientId: wayIn.recipientId },
        item.version.id,
        now,
      );
      const payload: CommentEventData<'comment.created'> = {
        commentId: id,
        versionId: item.version.id,
        trackId: item.track.id,
        teamId: link.teamId,
        parentId: null,
        comment: body,
        atSeconds: input.timestampSeconds,
        attachmentCount: 0,
        guest: { name, shareLinkId: link.id },
      };
      await this.events.record(tx, {
        type: 'comment.created',
        subject: { type: 'comment', id },
        actor: NO_ACTOR,
        teamId: link.teamId,
        payload,
      });
      return id;
    });
    const row = await repo.findGuestComment(this.db, commentId);
    if (!row) throw errors.notFound('comment');
    return guestCommentView(row);
  }
}

/** The version a guest comments on: the one named, or the link's only one; its time within the audio. */
function versionFor({ content }: Entry, input: GuestCommentInput) {
  const { items } = content;
  const item =
    input.versionId === undefined
      ? items.length === 1
        ? items[0]
        : undefined
      : items.find((i) => i.version.id === input.versionId);
  if (!item)
    throw errors.validation([
      {
        path: '/body/versionId',
        message:
          input.versionId === undefined
            ? 'is required: this link shows more than one version'
            : 'is not a version this link shows',
      },
    ]);
  const duration = item.version.durationSeconds;
  if (duration !== null && input.timestampSeconds > duration)
    throw errors.validation([
      { path: '/body/timestampSeconds', message: `is past the end of the audio (${duration} seconds)` },
    ]);
  return item;
}
