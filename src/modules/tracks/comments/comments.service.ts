import type { Db } from '../../../db/client.ts';
import { actorOf } from '../../../events/actor.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { isKeyInt, isKeyNumber } from '../../../shared/cursor-values.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import type { FilesService } from '../../files/files.service.ts';
import { teamEvent, teamEventRecorder } from '../team-event.ts';
import {
  requireVersion,
  requireVersionForChange,
  type TrackAccess,
  type VersionRow,
} from '../track-access.ts';
import { TRACK_FILE_OWNERS } from '../track-files.ts';
import { attachmentsOf } from './comment-attachment-view.ts';
import type { COMMENT_EVENTS } from './comment-events.ts';
import * as repo from './comments.repository.ts';

type Page = { limit: number; cursor?: string | undefined };

export type NewComment = { comment: string; atSeconds?: number | null; parentId?: number | null };
type VersionAccess = TrackAccess & { version: VersionRow };

const isCommentCursor = (v: unknown): v is [number, number] =>
  Array.isArray(v) && v.length === 2 && isKeyNumber(v[0]) && isKeyInt(v[1]);

/** Comments on a version (general or at a time in the audio, with replies), their reactions and attachments. */
export class CommentsService {
  private readonly record;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: FilesService,
    private readonly events: EventLog,
  ) {
    this.record = teamEventRecorder<typeof COMMENT_EVENTS>(events, 'comment', (p) => p.commentId);
  }

  async list(principal: Principal, trackId: number, versionId: number, page: Page) {
    const { track } = await requireVersion(this.db, principal, trackId, versionId);
    const rows = await repo.listComments(
      this.db,
      versionId,
      page.limit + 1,
      decodeCursor(page.cursor, isCommentCursor),
    );
    const { items, nextCursor } = toPage(rows, page.limit, (last) => [last.orderKey, last.id]);
    return { items: await this.withDetails(this.db, track.teamId, items), nextCursor };
  }

  async create(principal: Principal, trackId: number, versionId: number, input: NewComment) {
    const access = await requireVersionForChange(this.db, principal, trackId, versionId, 'comment');
    await this.checkNew(access.version, input);
    return this.db.transaction(async (tx) => {
      const id = await this.insert(tx, principal, access, input);
      return this.viewOf(tx, access.track.teamId, versionId, id);
    });
  }

  /** Checks a new comment: its timestamp within the audio, its parent a top-level comment of the version. */
  async checkNew(version: VersionRow, input: NewComment): Promise<void> {
    checkAtSeconds(version, input.atSeconds);
    if (!input.parentId) return;
    const parent = await repo.findComment(this.db, version.id, input.parentId);
    if (!parent)
      throw errors.validation([{ path: '/body/parentId', message: 'is not a comment of this version' }]);
    if (parent.parentId !== null)
      throw errors.validation([
        { path: '/body/parentId', message: 'is a reply; reply to its parent instead' },
      ]);
  }

  /** Writes a checked comment and its event in `tx` (with the number of attachments it gets); answers its id. */
  async insert(
    tx: Db,
    principal: Principal,
    access: VersionAccess,
    input: NewComment,
    attachmentCount = 0,
  ): Promise<number> {
    const { track, version } = access;
    const fields = {
      versionId: version.id,
      parentId: input.parentId ?? null,
      atSeconds: input.atSeconds ?? null,
      body: input.comment.trim(),
    };
    const id = await repo.insertComment(tx, fields, actorOf(principal), this.clock.now());
    await this.record(tx, principal, 'comment.created', {
      commentId: id,
      versionId: version.id,
      trackId: track.id,
      teamId: track.teamId,
      parentId: fields.parentId,
      comment: fields.body,
      atSeconds: fields.atSeconds,
      attachmentCount,
    });
    return id;
  }

  async update(
    principal: Principal,
    trackId: number,
    versionId: number,
    commentId: number,
    input: { comment?: string; atSeconds?: number | null },
  ) {
    const access = await requireVersionForChange(this.db, principal, trackId, versionId, 'comment');
    await this.requireEditable(access, principal, commentId);
    checkAtSeconds(access.version, input.atSeconds);
    const fields: { body?: string; atSeconds?: number | null } = {};
    if (input.comment !== undefined) fields.body = input.comment.trim();
    if (input.atSeconds !== undefined) fields.atSeconds = input.atSeconds;
    return this.db.transaction(async (tx) => {
      await repo.updateComment(tx, commentId, fields, this.clock.now());
      const { body, ...rest } = fields;
      await this.record(tx, principal, 'comment.updated', {
        commentId,
        versionId,
        trackId,
        teamId: access.track.teamId,
        changes: { ...rest, ...(body === undefined ? {} : { comment: body }) },
      });
      return this.viewOf(tx, access.track.teamId, versionId, commentId);
    });
  }

  /** Deletes a comment with its replies, and the attachments of all of them (files are not cascaded). */
  async remove(principal: Principal, trackId: number, versionId: number, commentId: number) {
    const access = await requireVersionForChange(this.db, principal, trackId, versionId, 'comment');
    await this.requireEditable(access, principal, commentId);
    const teamId = access.track.teamId;
    await this.files.transaction(async (tx) => {
      const thread = await repo.threadIds(tx, commentId);
      const owners = [{ type: TRACK_FILE_OWNERS.commentAttachment, ids: thread }];
      await this.files.deleteOfOwners(teamId, owners, { tx });
      await repo.deleteComment(tx, commentId);
      await this.record(tx, principal, 'comment.deleted', {
        commentId,
        versionId,
        trackId,
        teamId,
        removedCommentIds: thread,
      });
    });
  }

  /** Adds a reaction (idempotent: the same emoji twice by the same caller is one reaction). */
  async react(principal: Principal, trackId: number, versionId: number, commentId: number, emoji: string) {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'comment');
    await this.requireComment(versionId, commentId);
    const normalised = emoji.normalize('NFC');
    return this.db.transaction(async (tx) => {
      const added = await repo.addReaction(tx, commentId, normalised, actorOf(principal), this.clock.now());
      if (added)
        await this.events.record(
          tx,
          teamEvent(
            principal,
            track.teamId,
            'comment.reacted',
            { type: 'comment', id: commentId },
            {
              trackId,
              versionId,
              emoji: normalised,
            },
          ),
        );
      return this.viewOf(tx, track.teamId, versionId, commentId);
    });
  }

  /** Removes the caller's reaction (idempotent: removing an absent reaction succeeds). */
  async unreact(principal: Principal, trackId: number, versionId: number, commentId: number, emoji: string) {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'comment');
    await this.requireComment(versionId, commentId);
    const normalised = emoji.normalize('NFC');
    await this.db.transaction(async (tx) => {
      if (await repo.removeReaction(tx, commentId, normalised, actorOf(principal)))
        await this.events.record(
          tx,
          teamEvent(
            principal,
            track.teamId,
            'comment.unreacted',
            { type: 'comment', id: commentId },
            {
              trackId,
              versionId,
              emoji: normalised,
            },
          ),
        );
    });
  }

  /**
   * Resolves a comment, or opens it again (`resolved` false): answers the comment; a comment already in
   * that state is answered as it is, with no event.
   */
  async setResolved(
    principal: Principal,
    trackId: number,
    versionId: number,
    commentId: number,
    resolved: boolean,
  ) {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'comment');
    await this.requireComment(versionId, commentId);
    const by = principal.type === 'session' ? principal.userId : null;
    return this.db.transaction(async (tx) => {
      const changed = await repo.setResolved(tx, commentId, resolved ? { at: this.clock.now(), by } : null);
      if (changed)
        await this.record(tx, principal, resolved ? 'comment.resolved' : 'comment.unresolved', {
          commentId,
          versionId,
          trackId,
          teamId: track.teamId,
        });
      return this.viewOf(tx, track.teamId, versionId, commentId);
    });
  }

  private async requireComment(versionId: number, commentId: number) {
    const comment = await repo.findComment(this.db, versionId, commentId);
    if (!comment) throw errors.notFound('comment');
    return comment;
  }

  /**
   * The author, or whoever manages the track (an owner or admin of the owning team, or its key), may edit
   * or delete a comment; a role in a team the track is shared with moderates nothing.
   */
  private async requireEditable(access: VersionAccess, principal: Principal, commentId: number) {
    const comment = await this.requireComment(access.version.id, commentId);
    const isAuthor = principal.type === 'session' && comment.authorId === principal.userId;
    if (!isAuthor && !access.manages)
      throw errors.forbidden(
        'Only the author or an owner or admin of the team that owns the track can change this comment',
      );
    return comment;
  }

  /** One comment as the API answers it; `db` may be a transaction. */
  async viewOf(db: Db, teamId: number, versionId: number, commentId: number) {
    const row = await repo.findComment(db, versionId, commentId);
    if (!row) throw errors.notFound('comment');
    const [view] = await this.withDetails(db, teamId, [row]);
    return view!;
  }

  /** Reactions and attachments of the comments: one query each, whatever the number of comments. */
  private async withDetails(db: Db, teamId: number, rows: repo.CommentRow[]) {
    const ids = rows.map((r) => r.id);
    const [reactions, attachments] = await Promise.all([
      repo.reactionsOf(db, ids),
      attachmentsOf(db, this.files, teamId, ids),
    ]);
    return rows.map(({ orderKey: _o, authorKeyId: _k, guestName, guestLinkId, ...row }) => ({
      ...row,
      guest:
        guestName !== null && guestLinkId !== null ? { name: guestName, shareLinkId: guestLinkId } : null,
      reactions: reactions.get(row.id) ?? [],
      attachments: attachments.get(row.id) ?? [],
    }));
  }
}

/** A timestamp must lie within the audio when its duration is known. */
function checkAtSeconds(version: VersionRow, atSeconds: number | null | undefined) {
  if (atSeconds == null || version.durationSeconds === null) return;
  if (atSeconds > version.durationSeconds)
    throw errors.validation([
      {
        path: '/body/atSeconds',
        message: `is past the end of the audio (${version.durationSeconds} seconds)`,
      },
    ]);
}
