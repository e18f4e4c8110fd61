import { and, asc, eq, gt, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { chatThreadMembers, chatTyping } from '../../../db/schema/index.ts';
import { threadVisibleSql } from '../thread-access.ts';

export type Receipt = { userId: string; lastReadMessageId: string | null; readAt: Date | null };

const receiptColumns = {
  userId: chatThreadMembers.userId,
  lastReadMessageId: chatThreadMembers.lastReadMessageId,
  readAt: chatThreadMembers.readAt,
};

export async function setTyping(tx: Db, threadId: string, userId: string, expiresAt: Date): Promise<void> {
  await tx
    .insert(chatTyping)
    .values({ threadId, userId, expiresAt })
    .onConflictDoUpdate({ target: [chatTyping.threadId, chatTyping.userId], set: { expiresAt } });
}

/** Clears the user's typing mark; false when there was none still running. */
export async function clearTyping(tx: Db, threadId: string, userId: string, now: Date): Promise<boolean> {
  const rows = await tx
    .delete(chatTyping)
    .where(and(eq(chatTyping.threadId, threadId), eq(chatTyping.userId, userId)))
    .returning({ expiresAt: chatTyping.expiresAt });
  return rows.some((r) => r.expiresAt > now);
}

/** Who else is typing in the thread at `now`. */
export function typingNow(db: Db, threadId: string, viewerId: string, now: Date) {
  return db
    .select({ userId: chatTyping.userId, expiresAt: chatTyping.expiresAt })
    .from(chatTyping)
    .where(
      and(eq(chatTyping.threadId, threadId), ne(chatTyping.userId, viewerId), gt(chatTyping.expiresAt, now)),
    )
    .orderBy(asc(chatTyping.expiresAt), asc(chatTyping.userId));
}

/** Moves the user's read marker to `messageId` if that is later than where it is; false when it stays. */
export async function moveReadMarker(
  tx: Db,
  threadId: string,
  userId: string,
  messageId: string,
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .insert(chatThreadMembers)
    .values({ threadId, userId, addedAt: now, lastReadMessageId: messageId, readAt: now })
    .onConflictDoUpdate({
      target: [chatThreadMembers.threadId, chatThreadMembers.userId],
      set: { lastReadMessageId: messageId, readAt: now },
      setWhere: sql`${chatThreadMembers.lastReadMessageId} is null
        or ${chatThreadMembers.lastReadMessageId} < ${messageId}::uuid`,
    })
    .returning({ userId: chatThreadMembers.userId });
  return rows.length > 0;
}

export async function receiptOf(db: Db, threadId: string, userId: string): Promise<Receipt> {
  const [row] = await db
    .select(receiptColumns)
    .from(chatThreadMembers)
    .where(and(eq(chatThreadMembers.threadId, threadId), eq(chatThreadMembers.userId, userId)))
    .limit(1);
  return row ?? { userId, lastReadMessageId: null, readAt: null };
}

/** Read markers of the people who see the thread now, by user id after `after`. */
export function receipts(db: Db, threadId: string, after: string | undefined, limit: number) {
  return db
    .select(receiptColumns)
    .from(chatThreadMembers)
    .where(
      and(
        eq(chatThreadMembers.threadId, threadId),
        isNotNull(chatThreadMembers.lastReadMessageId),
        after ? gt(chatThreadMembers.userId, after) : undefined,
        threadVisibleSql(
          chatThreadMembers.threadId,
          sql`(select t.type from chat_threads t where t.id = ${chatThreadMembers.threadId})`,
          chatThreadMembers.userId,
        ),
      ),
    )
    .orderBy(asc(chatThreadMembers.userId))
    .limit(limit) as Promise<Receipt[]>;
}

export async function setPinned(tx: Db, threadId: string, userId: string, pinned: boolean, now: Date) {
  await tx
    .insert(chatThreadMembers)
    .values({ threadId, userId, addedAt: now, pinned })
    .onConflictDoUpdate({ target: [chatThreadMembers.threadId, chatThreadMembers.userId], set: { pinned } });
}
