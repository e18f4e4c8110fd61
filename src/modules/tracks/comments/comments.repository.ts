import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  commentReactions,
  shareLinkComments,
  versionComments,
  versionTodos,
} from '../../../db/schema/index.ts';
import type { Actor } from '../../../events/actor.ts';

/** General comments (no timestamp) first, then by position in the audio; ties in creation order. */
const orderKey = sql<number>`coalesce(${versionComments.atSeconds}, -1)`;

const commentColumns = {
  id: versionComments.id,
  versionId: versionComments.versionId,
  parentId: versionComments.parentId,
  atSeconds: versionComments.atSeconds,
  comment: versionComments.body,
  authorId: versionComments.createdBy,
  authorKeyId: versionComments.createdByKeyId,
  editedAt: versionComments.editedAt,
  createdAt: versionComments.createdAt,
  resolvedAt: versionComments.resolvedAt,
  resolvedBy: versionComments.resolvedBy,
  carriedFrom: versionComments.carriedFrom,
  // At most one (a unique index): the to-do made from the comment.
  todoId: sql<
    number | null
  >`(select ${versionTodos.id} from ${versionTodos} where ${versionTodos.commentId} = ${versionComments.id})`,
  guestName: shareLinkComments.name,
  guestLinkId: shareLinkComments.linkId,
  orderKey: orderKey.mapWith(Number),
};

/** Comments with the guest who wrote one through a review link, if a guest did. */
const withGuest = (db: Db) =>
  db
    .select(commentColumns)
    .from(versionComments)
    .leftJoin(shareLinkComments, eq(shareLinkComments.commentId, versionComments.id));

export type CommentRow = Awaited<ReturnType<typeof listComments>>[number];

export async function listComments(db: Db, versionId: number, limit: number, after?: [number, number]) {
  return withGuest(db)
    .where(
      and(
        eq(versionComments.versionId, versionId),
        after ? sql`(${orderKey}, ${versionComments.id}) > (${after[0]}::float8, ${after[1]})` : undefined,
      ),
    )
    .orderBy(asc(orderKey), asc(versionComments.id))
    .limit(limit);
}

export async function findComment(db: Db, versionId: number, commentId: number) {
  const [row] = await withGuest(db).where(
    and(eq(versionComments.id, commentId), eq(versionComments.versionId, versionId)),
  );
  return row;
}

export async function insertComment(
  db: Db,
  values: { versionId: number; parentId: number | null; atSeconds: number | null; body: string },
  actor: Actor,
  now: Date,
) {
  const [row] = await db
    .insert(versionComments)
    .values({ ...values, createdBy: actor.actorUserId, createdByKeyId: actor.actorKeyId, createdAt: now })
    .returning({ id: versionComments.id });
  return row!.id;
}

export async function updateComment(
  db: Db,
  commentId: number,
  fields: { body?: string; atSeconds?: number | null },
  now: Date,
) {
  await db
    .update(versionComments)
    .set({ ...fields, editedAt: now })
    .where(eq(versionComments.id, commentId));
}

/** Marks a comment resolved (by `userId`, null for a key) or open again; false when it already was. */
export async function setResolved(
  db: Db,
  commentId: number,
  resolved: { at: Date; by: string | null } | null,
) {
  const rows = await db
    .update(versionComments)
    .set(
      resolved
        ? { resolvedAt: resolved.at, resolvedBy: resolved.by }
        : { resolvedAt: null, resolvedBy: null },
    )
    .where(
      and(
        eq(versionComments.id, commentId),
        resolved ? isNull(versionComments.resolvedAt) : isNotNull(versionComments.resolvedAt),
      ),
    )
    .returning({ id: versionComments.id });
  return rows.length > 0;
}

/** The comment and its replies: what deleting it removes. */
export async function threadIds(db: Db, commentId: number): Promise<number[]> {
  const rows = await db
    .select({ id: versionComments.id })
    .from(versionComments)
    .where(or(eq(versionComments.id, commentId), eq(versionComments.parentId, commentId)));
  return rows.map((r) => r.id);
}

export async function deleteComment(db: Db, commentId: number) {
  await db.delete(versionComments).where(eq(versionComments.id, commentId));
}

/** Reactions of the given comments grouped by emoji, in the order each emoji was first used. */
export async function reactionsOf(db: Db, commentIds: number[]) {
  if (commentIds.length === 0)
    return new Map<number, { emoji: string; count: number; userIds: string[] }[]>();
  const rows = await db
    .select({
      commentId: commentReactions.commentId,
      emoji: commentReactions.emoji,
      count: sql<number>`count(*)`.mapWith(Number),
      userIds: sql<
        string[]
      >`coalesce(array_agg(${commentReactions.userId} order by ${commentReactions.createdAt}) filter (where ${commentReactions.userId} is not null), '{}')`,
      first: sql`min(${commentReactions.createdAt})`,
    })
    .from(commentReactions)
    .where(inArray(commentReactions.commentId, commentIds))
    .groupBy(commentReactions.commentId, commentReactions.emoji)
    .orderBy(sql`min(${commentReactions.createdAt})`, commentReactions.emoji);
  const byComment = new Map<number, { emoji: string; count: number; userIds: string[] }[]>();
  for (const { commentId, emoji, count, userIds } of rows) {
    const list = byComment.get(commentId) ?? [];
    list.push({ emoji, count, userIds });
    byComment.set(commentId, list);
  }
  return byComment;
}

/** The reaction key of an actor: one reaction per actor and emoji. */
const actorKey = (actor: Actor) => (actor.actorUserId ? `u:${actor.actorUserId}` : `k:${actor.actorKeyId}`);

/** Adds a reaction; false when the actor had already reacted with that emoji. */
export async function addReaction(db: Db, commentId: number, emoji: string, actor: Actor, now: Date) {
  const rows = await db
    .insert(commentReactions)
    .values({ commentId, emoji, actor: actorKey(actor), userId: actor.actorUserId, createdAt: now })
    .onConflictDoNothing()
    .returning({ emoji: commentReactions.emoji });
  return rows.length > 0;
}

/** Removes a reaction; false when there was none. */
export async function removeReaction(db: Db, commentId: number, emoji: string, actor: Actor) {
  const rows = await db
    .delete(commentReactions)
    .where(
      and(
        eq(commentReactions.commentId, commentId),
        eq(commentReactions.actor, actorKey(actor)),
        eq(commentReactions.emoji, emoji),
      ),
    )
    .returning({ emoji: commentReactions.emoji });
  return rows.length > 0;
}
