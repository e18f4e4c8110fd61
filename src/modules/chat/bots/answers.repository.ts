import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { chatMessages } from '../../../db/schema/index.ts';

/** The text of a live message of the thread that no bot has answered yet. */
export async function unansweredMessage(
  db: Db,
  threadId: string,
  messageId: string,
): Promise<{ content: string } | undefined> {
  const [row] = await db
    .select({ content: chatMessages.content })
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.id, messageId),
        eq(chatMessages.threadId, threadId),
        isNull(chatMessages.deletedAt),
        isNull(chatMessages.botReplyId),
      ),
    );
  return row;
}

/**
 * Records `replyId` as the answer to the message unless one is recorded already (or the message is gone):
 * whether this transaction may write the answer. The row stays locked to the commit, so a second run of the
 * same job waits and then finds it answered.
 */
export async function claimAnswer(tx: Db, messageId: string, replyId: string): Promise<boolean> {
  const rows = await tx
    .update(chatMessages)
    .set({ botReplyId: replyId })
    .where(
      and(eq(chatMessages.id, messageId), isNull(chatMessages.deletedAt), isNull(chatMessages.botReplyId)),
    )
    .returning({ id: chatMessages.id });
  return rows.length > 0;
}
