import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { shareLinkComments, users, versionComments } from '../../../db/schema/index.ts';

/** A reply sorts under the comment it answers: thread by thread, oldest first. */
const threadKey = sql<number>`coalesce(${versionComments.parentId}, ${versionComments.id})`;

const guestCommentColumns = {
  id: versionComments.id,
  versionId: versionComments.versionId,
  parentId: versionComments.parentId,
  timestampSeconds: versionComments.atSeconds,
  body: versionComments.body,
  guestName: shareLinkComments.name,
  userName: users.name,
  createdAt: versionComments.createdAt,
  threadKey: threadKey.mapWith(Number),
};

export type GuestCommentRow = Awaited<ReturnType<typeof findGuestComment>> & {};

/** Writes the guest's part of a comment: the name given and the link (and way in) it came through. */
export async function insertGuestComment(
  tx: Db,
  values: { commentId: number; linkId: number; recipientId: number; name: string },
) {
  await tx.insert(shareLinkComments).values(values);
}

function selectGuestComments(db: Db) {
  return db
    .select(guestCommentColumns)
    .from(versionComments)
    .leftJoin(shareLinkComments, eq(shareLinkComments.commentId, versionComments.id))
    .leftJoin(users, eq(users.id, versionComments.createdBy));
}

export async function findGuestComment(db: Db, commentId: number) {
  const [row] = await selectGuestComments(db).where(eq(versionComments.id, commentId));
  return row;
}

/**
 * The comments written through a link (any of its ways in) and the replies to them, thread by thread, after
 * the keyset `[thread, id]`.
 */
export async function listGuestComments(db: Db, linkId: number, limit: number, after?: [number, number]) {
  const ofLink = db
    .select({ id: shareLinkComments.commentId })
    .from(shareLinkComments)
    .where(eq(shareLinkComments.linkId, linkId));
  return selectGuestComments(db)
    .where(
      and(
        or(inArray(versionComments.id, ofLink), inArray(versionComments.parentId, ofLink)),
        after ? sql`(${threadKey}, ${versionComments.id}) > (${after[0]}::int, ${after[1]}::int)` : undefined,
      ),
    )
    .orderBy(asc(threadKey), asc(versionComments.id))
    .limit(limit);
}
