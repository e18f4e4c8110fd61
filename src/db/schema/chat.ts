import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { stamp, timestamps } from './columns.ts';
import { files } from './files.ts';
import { users } from './identity.ts';
import { teams } from './teams.ts';

export const CHAT_THREAD_TYPES = ['team', 'group', 'direct', 'bot'] as const;
export type ChatThreadType = (typeof CHAT_THREAD_TYPES)[number];

export const CHAT_TRANSCRIPT_STATUSES = ['pending', 'done', 'failed'] as const;
export type ChatTranscriptStatus = (typeof CHAT_TRANSCRIPT_STATUSES)[number];

export const CHAT_MENTION_KINDS = ['user', 'track', 'album', 'contact'] as const;
export type ChatMentionKind = (typeof CHAT_MENTION_KINDS)[number];

/**
 * A conversation in one or more teams. `team` threads are open to every member of their teams; the other
 * types to their chosen members (rows of `chat_thread_members` without `removedAt`).
 */
export const chatThreads = pgTable(
  'chat_threads',
  {
    /** UUIDv7, made by the service. */
    id: uuid().primaryKey(),
    type: text().$type<ChatThreadType>().notNull(),
    name: text(),
    /** The bot of a `bot` thread. */
    botId: text(),
    /** One thread per key: a direct thread per pair and teams, a bot thread per user, team and bot. */
    dedupeKey: text(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    lastMessageId: uuid(),
    lastMessageAt: stamp(),
    /** Newest activity (creation or the last message): the order of thread lists. */
    activityAt: stamp().notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('chat_threads_dedupe_unique').on(t.dedupeKey),
    index('chat_threads_activity_idx').on(t.activityAt.desc(), t.id.desc()),
    check('chat_threads_type', sql`${t.type} in ('team', 'group', 'direct', 'bot')`),
  ],
);

export const chatThreadTeams = pgTable(
  'chat_thread_teams',
  {
    threadId: uuid()
      .notNull()
      .references(() => chatThreads.id, { onDelete: 'cascade' }),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.threadId, t.teamId] }),
    index('chat_thread_teams_team_idx').on(t.teamId, t.threadId),
  ],
);

/**
 * One person's place in a thread: membership of a non-team thread (`removedAt` null) and, for every type,
 * that person's own state (read marker, pin, a `team` thread they left).
 */
export const chatThreadMembers = pgTable(
  'chat_thread_members',
  {
    threadId: uuid()
      .notNull()
      .references(() => chatThreads.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedAt: stamp().notNull().defaultNow(),
    removedAt: stamp(),
    lastReadMessageId: uuid(),
    readAt: stamp(),
    pinned: boolean().notNull().default(false),
    /** When they left a `team` thread: hidden from their list until a message newer than this. */
    hiddenAt: stamp(),
  },
  (t) => [
    primaryKey({ columns: [t.threadId, t.userId] }),
    index('chat_thread_members_user_idx').on(t.userId, t.threadId),
  ],
);

/** A message by a user (`authorId`) or a bot (`botId`); both null once its author's account is gone. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    /** UUIDv7, made by the service: the order of a thread's messages. */
    id: uuid().primaryKey(),
    threadId: uuid()
      .notNull()
      .references(() => chatThreads.id, { onDelete: 'cascade' }),
    authorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    botId: text(),
    /** Empty once deleted. */
    content: text().notNull(),
    createdAt: stamp().notNull(),
    editedAt: stamp(),
    deletedAt: stamp(),
    /** A voice note: a file of the thread's first team. */
    voiceFileId: integer().references(() => files.id, { onDelete: 'set null' }),
    /** Transcription of the voice note: null (never asked), `pending`, `done` or `failed`. */
    transcriptStatus: text().$type<ChatTranscriptStatus>(),
    transcript: text(),
    transcriptError: text(),
    /** The id of the latest transcription job (what its poll route names). */
    transcriptJobId: uuid(),
    transcriptRequestedAt: stamp(),
    /** In a bot's thread, the bot's answer to this message once written: a job writes it at most once. */
    botReplyId: uuid(),
  },
  (t) => [
    index('chat_messages_thread_idx').on(t.threadId, t.id.desc()),
    index('chat_messages_author_idx').on(t.authorId),
    check('chat_messages_one_author', sql`num_nonnulls(${t.authorId}, ${t.botId}) <= 1`),
  ],
);

/** The mentions a message's content names, for targets its thread's teams can see. */
export const chatMessageMentions = pgTable(
  'chat_message_mentions',
  {
    messageId: uuid()
      .notNull()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
    kind: text().$type<ChatMentionKind>().notNull(),
    /** A user's UUID, or the integer id of a track, album or contact, as text. */
    targetId: text().notNull(),
    label: text().notNull(),
    position: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.kind, t.targetId] }),
    // Who was mentioned where (notifications, the inbox).
    index('chat_message_mentions_target_idx').on(t.kind, t.targetId, t.messageId),
    check('chat_message_mentions_kind', sql`${t.kind} in ('user', 'track', 'album', 'contact')`),
  ],
);

export const chatReactions = pgTable(
  'chat_reactions',
  {
    messageId: uuid()
      .notNull()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    emoji: text().notNull(),
    createdAt: stamp().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId, t.emoji] })],
);

/** Who is typing where, until when; shared by every process. */
export const chatTyping = pgTable(
  'chat_typing',
  {
    threadId: uuid()
      .notNull()
      .references(() => chatThreads.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: stamp().notNull(),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.userId] }), index('chat_typing_expires_idx').on(t.expiresAt)],
);

/**
 * The open event streams of every process, so the cap on one person's streams holds across processes: past
 * it, the oldest are closed. A row is refreshed at each heartbeat by the process that holds the stream; one
 * left by a process that died goes stale and no longer counts.
 */
export const chatEventStreams = pgTable(
  'chat_event_streams',
  {
    /** In the order streams opened. */
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    openedAt: stamp().notNull(),
    seenAt: stamp().notNull(),
  },
  (t) => [index('chat_event_streams_user_idx').on(t.userId, t.id)],
);
