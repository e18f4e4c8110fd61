import { and, asc, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { chatMessageMentions, chatMessages, chatReactions, chatThreads } from '../../../db/schema/index.ts';
import type { ParsedMention } from './mentions.ts';
import type { MentionView, MessageRow, ReactionView } from './message-view.ts';

export const messageColumns = {
  id: chatMessages.id,
  threadId: chatMessages.threadId,
  authorId: chatMessages.authorId,
  botId: chatMessages.botId,
  content: chatMessages.content,
  createdAt: chatMessages.createdAt,
  editedAt: chatMessages.editedAt,
  deletedAt: chatMessages.deletedAt,
  voiceFileId: chatMessages.voiceFileId,
  transcriptStatus: chatMessages.transcriptStatus,
  transcript: chatMessages.transcript,
};

/** A page of a thread's messages, newest first, older than `before` (a message id). */
export function listMessages(db: Db, threadId: string, before: string | undefined, limit: number) {
  return db
    .select(messageColumns)
    .from(chatMessages)
    .where(and(eq(chatMessages.threadId, threadId), before ? lt(chatMessages.id, before) : undefined))
    .orderBy(desc(chatMessages.id))
    .limit(limit);
}

export async function findMessage(
  db: Db,
  threadId: string,
  messageId: string,
): Promise<MessageRow | undefined> {
  const [row] = await db
    .select(messageColumns)
    .from(chatMessages)
    .where(and(eq(chatMessages.id, messageId), eq(chatMessages.threadId, threadId)))
    .limit(1);
  return row;
}

export function messagesByIds(db: Db, ids: string[]): Promise<MessageRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select(messageColumns)
    .from(chatMessages)
    .where(sql`${chatMessages.id} = any(${sql.param(ids)}::uuid[])`);
}

export async function insertMessage(tx: Db, row: MessageRow): Promise<MessageRow> {
  const [inserted] = await tx.insert(chatMessages).values(row).returning(messageColumns);
  return inserted!;
}

/** Makes `message` its thread's last message, unless a newer one got there first. */
export async function bumpThread(tx: Db, message: MessageRow): Promise<void> {
  await tx
    .update(chatThreads)
    .set({
      lastMessageId: message.id,
      lastMessageAt: message.createdAt,
      activityAt: sql`greatest(${chatThreads.activityAt}, ${message.createdAt.toISOString()}::timestamptz)`,
    })
    .where(
      and(
        eq(chatThreads.id, message.threadId),
        sql`(${chatThreads.lastMessageId} is null or ${chatThreads.lastMessageId} < ${message.id}::uuid)`,
      ),
    );
}

export async function updateContent(
  tx: Db,
  messageId: string,
  content: string,
  editedAt: Date,
): Promise<MessageRow | undefined> {
  const [row] = await tx
    .update(chatMessages)
    .set({ content, editedAt })
    .where(and(eq(chatMessages.id, messageId), isNull(chatMessages.deletedAt)))
    .returning(messageColumns);
  return row;
}

/** Deletes a message softly: its content, mentions and reactions go, the row stays as `deleted`. */
export async function softDelete(tx: Db, messageId: string, now: Date): Promise<MessageRow | undefined> {
  const [row] = await tx
    .update(chatMessages)
    .set({ content: '', deletedAt: now })
    .where(and(eq(chatMessages.id, messageId), isNull(chatMessages.deletedAt)))
    .returning(messageColumns);
  if (!row) return undefined;
  await tx.delete(chatMessageMentions).where(eq(chatMessageMentions.messageId, messageId));
  await tx.delete(chatReactions).where(eq(chatReactions.messageId, messageId));
  return row;
}

export async function insertMentions(tx: Db, messageId: string, mentions: ParsedMention[]): Promise<void> {
  if (mentions.length === 0) return;
  await tx.insert(chatMessageMentions).values(mentions.map((m) => ({ ...m, messageId })));
}

export async function replaceMentions(tx: Db, messageId: string, mentions: ParsedMention[]): Promise<void> {
  await tx.delete(chatMessageMentions).where(eq(chatMessageMentions.messageId, messageId));
  await insertMentions(tx, messageId, mentions);
}

/** Adds a reaction; false when the user already reacted with that emoji. */
export async function addReaction(
  tx: Db,
  messageId: string,
  userId: string,
  emoji: string,
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .insert(chatReactions)
    .values({ messageId, userId, emoji, createdAt: now })
    .onConflictDoNothing()
    .returning({ emoji: chatReactions.emoji });
  return rows.length > 0;
}

export async function removeReaction(tx: Db, messageId: string, userId: string, emoji: string) {
  const rows = await tx
    .delete(chatReactions)
    .where(
      and(
        eq(chatReactions.messageId, messageId),
        eq(chatReactions.userId, userId),
        eq(chatReactions.emoji, emoji),
      ),
    )
    .returning({ emoji: chatReactions.emoji });
  return rows.length > 0;
}

/** The reactions of each message, per emoji in the order first used, with whether `viewerId` is among them. */
export async function reactionsOf(
  db: Db,
  messageIds: string[],
  viewerId: string,
): Promise<Map<string, ReactionView[]>> {
  const byMessage = new Map<string, ReactionView[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = await db
    .select({
      messageId: chatReactions.messageId,
      emoji: chatReactions.emoji,
      count: sql<number>`count(*)::int`,
      me: sql<boolean>`bool_or(${chatReactions.userId} = ${viewerId}::uuid)`,
    })
    .from(chatReactions)
    .where(sql`${chatReactions.messageId} = any(${sql.param(messageIds)}::uuid[])`)
    .groupBy(chatReactions.messageId, chatReactions.emoji)
    .orderBy(asc(sql`min(${chatReactions.createdAt})`), asc(chatReactions.emoji));
  for (const { messageId, ...reaction } of rows) {
    const list = byMessage.get(messageId) ?? [];
    list.push(reaction);
    byMessage.set(messageId, list);
  }
  return byMessage;
}

export async function mentionsOf(db: Db, messageIds: string[]): Promise<Map<string, MentionView[]>> {
  const byMessage = new Map<string, MentionView[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = await db
    .select({
      messageId: chatMessageMentions.messageId,
      kind: chatMessageMentions.kind,
      id: chatMessageMentions.targetId,
      label: chatMessageMentions.label,
    })
    .from(chatMessageMentions)
    .where(sql`${chatMessageMentions.messageId} = any(${sql.param(messageIds)}::uuid[])`)
    .orderBy(asc(chatMessageMentions.messageId), asc(chatMessageMentions.position));
  for (const { messageId, ...mention } of rows) {
    const list = byMessage.get(messageId) ?? [];
    list.push(mention);
    byMessage.set(messageId, list);
  }
  return byMessage;
}
