import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { decodeCursor, toPage } from '../../shared/pagination.ts';
import { actorOf, recordActivityBy } from '../activity/activity.ts';
import * as repo from './comments.repository.ts';
import { requireVersion, type TrackAccess, type VersionRow } from './track-access.ts';

type Page = { limit: number; cursor?: string | undefined };

const isCommentCursor = (v: unknown): v is [number, number] =>
  Array.isArray(v) && v.length === 2 && Number.isFinite(v[0]) && Number.isSafeInteger(v[1]);

/** Comments on a version (general or at a time in the audio, with replies) and their reactions. */
export class CommentsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async list(principal: Principal, trackId: number, versionId: number, page: Page) {
    await requireVersion(this.db, principal, trackId, versionId);
    const rows = await repo.listComments(
      this.db,
      versionId,
      page.limit + 1,
      decodeCursor(page.cursor, isCommentCursor),
    );
    const { items, nextCursor } = toPage(rows, page.limit, (last) => [last.orderKey, last.id]);
    return { items: await this.withReactions(this.db, items), nextCursor };
  }

  async create(
    principal: Principal,
    trackId: number,
    versionId: number,
    input: { comment: string; atSeconds?: number | null; parentId?: number | null },
  ) {
    const { track, version } = await requireVersion(this.db, principal, trackId, versionId);
    checkAtSeconds(version, input.atSeconds);
    if (input.parentId) {
      const parent = await repo.findComment(this.db, versionId, input.parentId);
      if (!parent)
        throw errors.validation([{ path: '/body/parentId', message: 'is not a comment of this version' }]);
      if (parent.parentId !== null)
        throw errors.validation([
          { path: '/body/parentId', message: 'is a reply; reply to its parent instead' },
        ]);
    }
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const id = await repo.insertComment(
        tx,
        {
          versionId,
          parentId: input.parentId ?? null,
          atSeconds: input.atSeconds ?? null,
          body: input.comment.trim(),
        },
        actorOf(principal),
        now,
      );
      await this.record(tx, principal, track.teamId, 'comment.created', id, {
        trackId,
        versionId,
        parentId: input.parentId ?? null,
      });
      return this.view(tx, versionId, id);
    });
  }

  async update(
    principal: Principal,
    trackId: number,
    versionId: number,
    commentId: number,
    input: { comment?: string; atSeconds?: number | null },
  ) {
    const access = await requireVersion(this.db, principal, trackId, versionId);
    await this.requireEditable(access, principal, commentId);
    checkAtSeconds(access.version, input.atSeconds);
    const fields: { body?: string; atSeconds?: number | null } = {};
    if (input.comment !== undefined) fields.body = input.comment.trim();
    if (input.atSeconds !== undefined) fields.atSeconds = input.atSeconds;
    return this.db.transaction(async (tx) => {
      await repo.updateComment(tx, commentId, fields, this.clock.now());
      await this.record(tx, principal, access.track.teamId, 'comment.updated', commentId, {
        trackId,
        versionId,
      });
      return this.view(tx, versionId, commentId);
    });
  }

  async remove(principal: Principal, trackId: number, versionId: number, commentId: number) {
    const access = await requireVersion(this.db, principal, trackId, versionId);
    await this.requireEditable(access, principal, commentId);
    await this.db.transaction(async (tx) => {
      await repo.deleteComment(tx, commentId);
      await this.record(tx, principal, access.track.teamId, 'comment.deleted', commentId, {
        trackId,
        versionId,
      });
    });
  }

  /** Adds a reaction (idempotent: the same emoji twice by the same caller is one reaction). */
  async react(principal: Principal, trackId: number, versionId: number, commentId: number, emoji: string) {
    const { track } = await requireVersion(this.db, principal, trackId, versionId);
    await this.requireComment(versionId, commentId);
    const normalised = emoji.normalize('NFC');
    return this.db.transaction(async (tx) => {
      const added = await repo.addReaction(tx, commentId, normalised, actorOf(principal), this.clock.now());
      if (added)
        await this.record(tx, principal, track.teamId, 'comment.reacted', commentId, {
          trackId,
          versionId,
          emoji: normalised,
        });
      return this.view(tx, versionId, commentId);
    });
  }

  /** Removes the caller's reaction (idempotent: removing an absent reaction succeeds). */
  async unreact(principal: Principal, trackId: number, versionId: number, commentId: number, emoji: string) {
    const { track } = await requireVersion(this.db, principal, trackId, versionId);
    await this.requireComment(versionId, commentId);
    const normalised = emoji.normalize('NFC');
    await this.db.transaction(async (tx) => {
      if (await repo.removeReaction(tx, commentId, normalised, actorOf(principal)))
        await this.record(tx, principal, track.teamId, 'comment.unreacted', commentId, {
          trackId,
          versionId,
          emoji: normalised,
        });
    });
  }

  private async requireComment(versionId: number, commentId: number) {
    const comment = await repo.findComment(this.db, versionId, commentId);
    if (!comment) throw errors.notFound('comment');
    return comment;
  }

  /** The author, an owner or admin of a team that holds the track, or a team key may edit or delete a comment. */
  private async requireEditable(
    access: TrackAccess & { version: VersionRow },
    principal: Principal,
    commentId: number,
  ) {
    const comment = await this.requireComment(access.version.id, commentId);
    // A team key is issued by an owner or admin, so with the write scope it moderates like one.
    const allowed = principal.type === 'key' || comment.authorId === principal.userId || access.manages;
    if (!allowed) throw errors.forbidden('Only the author or a team owner or admin can change this comment');
    return comment;
  }

  private async view(db: Db, versionId: number, commentId: number) {
    const row = await repo.findComment(db, versionId, commentId);
    if (!row) throw errors.notFound('comment');
    const [view] = await this.withReactions(db, [row]);
    return view!;
  }

  private async withReactions(db: Db, rows: repo.CommentRow[]) {
    const reactions = await repo.reactionsOf(
      db,
      rows.map((r) => r.id),
    );
    return rows.map(({ orderKey: _o, authorKeyId: _k, ...row }) => ({
      ...row,
      reactions: reactions.get(row.id) ?? [],
    }));
  }

  private record(
    tx: Db,
    principal: Principal,
    teamId: number,
    action: string,
    subjectId: number,
    data: Record<string, unknown>,
  ) {
    return recordActivityBy(tx, principal, { teamId, action, subjectType: 'comment', subjectId, data });
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
