import type { Db } from '../../../db/client.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeCursor, pageOfList, toPage } from '../../../shared/pagination.ts';
import { sessionUserId } from '../../../shared/tenancy.ts';
import { goneAsNotFound } from '../gone-as-not-found.ts';
import { isUuid } from '../ids.ts';
import { findMessage } from '../messages/messages.repository.ts';
import { requireThread } from '../thread-access.ts';
import type { ChatThreadsService } from '../threads/threads.service.ts';
import * as repo from './state.repository.ts';
import { TYPING_SECONDS } from './state.schemas.ts';

/**
 * What each person has of a thread: typing marks, read markers and pins. These are personal state, not team
 * activity: their events (typing, read) belong to no team and only show on the stream.
 */
export class ChatThreadStateService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventLog,
    private readonly threads: ChatThreadsService,
  ) {}

  async setTyping(principal: Principal, threadId: string, typing: boolean): Promise<void> {
    const userId = sessionUserId(principal);
    await requireThread(this.db, userId, threadId);
    await goneAsNotFound('chat thread', () => this.writeTyping(threadId, userId, typing));
  }

  private writeTyping(threadId: string, userId: string, typing: boolean) {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      if (typing) {
        const expiresAt = new Date(now.getTime() + TYPING_SECONDS * 1000);
        await repo.setTyping(tx, threadId, userId, expiresAt);
        await this.record(tx, threadId, userId, 'typing', { userId, typing: true, expiresAt });
      } else if (await repo.clearTyping(tx, threadId, userId, now)) {
        await this.record(tx, threadId, userId, 'typing', { userId, typing: false, expiresAt: null });
      }
    });
  }

  /** The others typing in the thread right now, whose marks run out first first. */
  async typing(principal: Principal, threadId: string, page: { limit: number; cursor?: string | undefined }) {
    const userId = sessionUserId(principal);
    await requireThread(this.db, userId, threadId);
    const typists = await repo.typingNow(this.db, threadId, userId, this.clock.now());
    return pageOfList(typists, page, {
      key: (t): [string, string] => [t.expiresAt.toISOString(), t.userId],
      shape: ['string', 'string'],
    });
  }

  /** Moves the caller's read marker forward (never back); answers their marker as it now stands. */
  async read(principal: Principal, threadId: string, messageId: string) {
    const userId = sessionUserId(principal);
    await requireThread(this.db, userId, threadId);
    if (!(await findMessage(this.db, threadId, messageId))) throw errors.notFound('message');
    return goneAsNotFound('chat thread', () => this.moveMarker(threadId, userId, messageId));
  }

  private moveMarker(threadId: string, userId: string, messageId: string) {
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      if (await repo.moveReadMarker(tx, threadId, userId, messageId, now)) {
        await this.record(tx, threadId, userId, 'read', {
          userId,
          lastReadMessageId: messageId,
          readAt: now,
        });
      }
      return repo.receiptOf(tx, threadId, userId);
    });
  }

  /** The read markers of the people who see the thread, by user id. */
  async receipts(
    principal: Principal,
    threadId: string,
    page: { limit: number; cursor?: string | undefined },
  ) {
    const userId = sessionUserId(principal);
    await requireThread(this.db, userId, threadId);
    const after = decodeCursor(page.cursor, isUuid);
    const rows = await repo.receipts(this.db, threadId, after, page.limit + 1);
    return toPage(rows, page.limit, (last) => last.userId);
  }

  /** Pins or unpins the thread for the caller; answers the thread. */
  async pin(principal: Principal, threadId: string, pinned: boolean) {
    const userId = sessionUserId(principal);
    await requireThread(this.db, userId, threadId);
    await goneAsNotFound('chat thread', () =>
      repo.setPinned(this.db, threadId, userId, pinned, this.clock.now()),
    );
    return this.threads.view(this.db, userId, threadId);
  }

  private async record(
    tx: Db,
    threadId: string,
    userId: string,
    type: 'typing' | 'read',
    payload: Record<string, unknown>,
  ): Promise<void> {
    await this.events.record(tx, {
      type,
      subject: { type: 'chat_thread', id: threadId },
      actor: { actorUserId: userId, actorKeyId: null },
      payload,
      stream: { type, threadId },
    });
  }
}
