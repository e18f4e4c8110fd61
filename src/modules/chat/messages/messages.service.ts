import type { Db } from '../../../db/client.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import { sessionUserId } from '../../../shared/tenancy.ts';
import { chatEvents } from '../chat-events.ts';
import type { ChatEventType } from '../events/event-types.ts';
import { goneAsNotFound } from '../gone-as-not-found.ts';
import { type ChatIds, isUuid } from '../ids.ts';
import { managesThread, requireThread, type ThreadAccess } from '../thread-access.ts';
import { visibleMentions } from './mention-targets.ts';
import { parseMentions } from './mentions.ts';
import {
  type MessageRow,
  type MessageView,
  messageEventView,
  messageView,
  type VoiceView,
} from './message-view.ts';
import * as repo from './messages.repository.ts';

/** Who writes a message: a user, or (for the bot helpers) a bot. */
export type MessageAuthor = { userId: string } | { botId: string };

/** The thread a message goes to, as far as writing it needs. */
export type MessageThread = Pick<ThreadAccess, 'id' | 'teamIds'>;

/** What the voice module adds to messages; without it, messages are text only. */
export interface MessageVoice {
  /** Voice views of the rows that carry a voice note, by message id. */
  views(db: Db, rows: MessageRow[]): Promise<Map<string, VoiceView>>;
  /** Registers the upload `fileKey` and posts the message with it, and runs `then`, in one transaction. */
  post(
    thread: ThreadAccess,
    userId: string,
    content: string,
    fileKey: string,
    then: AfterPost,
  ): Promise<MessageView>;
}

/** More work in the transaction that posts a user's message. */
export type AfterPost = (tx: Db, message: MessageView) => Promise<void>;

/** What the bots module adds: the answer of a `bot` thread's bot to a user's message there, written later. */
export interface MessageBots {
  /** Queues the answer in `tx`, the transaction that stores the user's message; nothing outside bot threads. */
  queue(tx: Db, thread: ThreadAccess, userId: string, message: MessageView): Promise<void>;
  /** After that commit: lets this process start on the answer at once. */
  nudge(): void;
}

/** Messages of a thread and their reactions. */
export class ChatMessagesService {
  /** Set by the voice module once it is built. */
  voice: MessageVoice | undefined;
  /** Set by the bots module once it is built. */
  bots: MessageBots | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ids: ChatIds,
    private readonly events: EventLog,
  ) {}

  /** Message views for `viewerId`: reactions and mentions of every row in two statements. */
  async views(db: Db, rows: MessageRow[], viewerId: string): Promise<MessageView[]> {
    const live = rows.filter((r) => r.deletedAt === null).map((r) => r.id);
    const [reactions, mentions, voices] = await Promise.all([
      repo.reactionsOf(db, live, viewerId),
      repo.mentionsOf(db, live),
      this.voiceViews(db, rows),
    ]);
    return rows.map((r) => messageView(r, reactions.get(r.id), mentions.get(r.id), voices.get(r.id)));
  }

  private async voiceViews(db: Db, rows: MessageRow[]): Promise<Map<string, VoiceView>> {
    const voiced = rows.filter((r) => r.voiceFileId !== null && r.deletedAt === null);
    if (!this.voice || voiced.length === 0) return new Map();
    return this.voice.views(db, voiced);
  }

  /** A page of the thread's messages, newest first; `nextCursor` goes back in time. */
  async list(principal: Principal, threadId: string, page: { limit: number; cursor?: string | undefined }) {
    const userId = sessionUserId(principal);
    await requireThread(this.db, userId, threadId);
    const before = decodeCursor(page.cursor, isUuid);
    const rows = await repo.listMessages(this.db, threadId, before, page.limit + 1);
    const { items, nextCursor } = toPage(rows, page.limit, (last) => last.id);
    return { items: await this.views(this.db, items, userId), nextCursor };
  }

  /** A text message, or (with `voiceFileKey`) a voice note whose content may be empty. */
  async create(
    principal: Principal,
    threadId: string,
    input: { content?: string | undefined; voiceFileKey?: string | undefined },
  ): Promise<MessageView> {
    const userId = sessionUserId(principal);
    const thread = await requireThread(this.db, userId, threadId);
    const content = input.content ?? '';
    const { voice, bots } = this;
    // A bot answers in its own thread: a job queued with the user's message writes it (the next message).
    const then: AfterPost = async (tx, message) => {
      await bots?.queue(tx, thread, userId, message);
    };
    let view: MessageView;
    if (input.voiceFileKey !== undefined && voice) {
      const fileKey = input.voiceFileKey;
      view = await goneAsNotFound('chat thread', () => voice.post(thread, userId, content, fileKey, then));
    } else {
      if (!/\S/.test(content))
        throw errors.validation([
          {
            path: '/body/content',
            message: 'is required (not only white space) unless voiceFileKey is given',
          },
        ]);
      view = await goneAsNotFound('chat thread', () =>
        this.db.transaction(async (tx) => {
          const posted = await this.post(tx, thread, { userId }, content);
          await then(tx, posted);
          return posted;
        }),
      );
    }
    bots?.nudge();
    return view;
  }

  /**
   * Writes a message by a user or a bot in `tx`: its mentions, the thread's last message and its event. The caller has checked that the author may write there.
   */
  async post(
    tx: Db,
    thread: MessageThread,
    author: MessageAuthor,
    content: string,
    options: { voiceFileId?: number; id?: string } = {},
  ): Promise<MessageView> {
    const now = this.clock.now();
    const userId = 'userId' in author ? author.userId : null;
    const row = await repo.insertMessage(tx, {
      id: options.id ?? this.ids.next(),
      threadId: thread.id,
      authorId: userId,
      botId: 'botId' in author ? author.botId : null,
      content,
      createdAt: now,
      editedAt: null,
      deletedAt: null,
      voiceFileId: options.voiceFileId ?? null,
      transcriptStatus: null,
      transcript: null,
    });
    const mentions = await visibleMentions(tx, thread, parseMentions(content));
    await repo.insertMentions(tx, row.id, mentions);
    const view = messageView(
      row,
      [],
      mentions.map((m) => ({ kind: m.kind, id: m.targetId, label: m.label })),
      (await this.voiceViews(tx, [row])).get(row.id),
    );
    await this.record(tx, userId, thread, row.id, 'created', 'message.created', {
      message: messageEventView(view),
    });
    // Last: the thread's row is locked from here to the commit, and every message of the thread needs it.
    await repo.bumpThread(tx, row);
    return view;
  }

  /** Changes the text of one's own message (mentions are read again). */
  async update(principal: Principal, threadId: string, messageId: string, content: string) {
    const userId = sessionUserId(principal);
    const thread = await requireThread(this.db, userId, threadId);
    const found = await this.requireMessage(threadId, messageId);
    if (found.authorId !== userId) throw errors.forbidden('Only the author edits a message');
    if (found.deletedAt) throw errors.conflict('This message was deleted');
    return this.db.transaction(async (tx) => {
      const row = await repo.updateContent(tx, messageId, content, this.clock.now());
      if (!row) throw errors.conflict('This message was deleted');
      const mentions = await visibleMentions(tx, thread, parseMentions(content));
      await repo.replaceMentions(tx, messageId, mentions);
      const [view] = await this.views(tx, [row], userId);
      await this.record(tx, userId, thread, messageId, 'edited', 'message.updated', {
        message: messageEventView(view!),
      });
      return view!;
    });
  }

  /** Deletes a message softly (its author, or an owner or admin of one of the thread's teams); idempotent. */
  async remove(principal: Principal, threadId: string, messageId: string): Promise<void> {
    const userId = sessionUserId(principal);
    const thread = await requireThread(this.db, userId, threadId);
    const found = await this.requireMessage(threadId, messageId);
    if (found.authorId !== userId && !managesThread(thread))
      throw errors.forbidden('Only the author or a team owner or admin deletes a message');
    if (found.deletedAt) return;
    await this.db.transaction(async (tx) => {
      const row = await repo.softDelete(tx, messageId, this.clock.now());
      if (!row) return;
      await this.record(tx, userId, thread, messageId, 'deleted', 'message.deleted', {
        messageId,
        deletedAt: row.deletedAt,
      });
    });
  }

  /** Adds the caller's reaction (idempotent); answers the message. */
  async react(principal: Principal, threadId: string, messageId: string, emoji: string) {
    const userId = sessionUserId(principal);
    const thread = await requireThread(this.db, userId, threadId);
    const found = await this.requireMessage(threadId, messageId);
    if (found.deletedAt) throw errors.conflict('This message was deleted');
    return goneAsNotFound('message', () => this.reactIn(userId, thread, found, emoji));
  }

  private reactIn(userId: string, thread: ThreadAccess, found: MessageRow, emoji: string) {
    const messageId = found.id;
    return this.db.transaction(async (tx) => {
      if (await repo.addReaction(tx, messageId, userId, emoji, this.clock.now())) {
        await this.record(tx, userId, thread, messageId, 'reaction_added', 'reaction.added', {
          messageId,
          userId,
          emoji,
        });
      }
      const [view] = await this.views(tx, [found], userId);
      return view!;
    });
  }

  /** Removes the caller's reaction (idempotent). */
  async unreact(principal: Principal, threadId: string, messageId: string, emoji: string): Promise<void> {
    const userId = sessionUserId(principal);
    const thread = await requireThread(this.db, userId, threadId);
    await this.requireMessage(threadId, messageId);
    await this.db.transaction(async (tx) => {
      if (!(await repo.removeReaction(tx, messageId, userId, emoji))) return;
      await this.record(tx, userId, thread, messageId, 'reaction_removed', 'reaction.removed', {
        messageId,
        userId,
        emoji,
      });
    });
  }

  private async requireMessage(threadId: string, messageId: string): Promise<MessageRow> {
    const row = await repo.findMessage(this.db, threadId, messageId);
    if (!row) throw errors.notFound('message');
    return row;
  }

  /** The event of a change of a message (`type`), shown on the stream as `streamType` with `payload`. */
  private async record(
    tx: Db,
    userId: string | null,
    thread: MessageThread,
    messageId: string,
    type: string,
    streamType: ChatEventType,
    payload: Record<string, unknown>,
  ): Promise<void> {
    await this.events.record(
      tx,
      chatEvents({
        actorUserId: userId,
        teamIds: thread.teamIds,
        subjectType: 'chat_message',
        subjectId: messageId,
        type,
        payload,
        stream: { type: streamType, threadId: thread.id },
      }),
    );
  }
}
