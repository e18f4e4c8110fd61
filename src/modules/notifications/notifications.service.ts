import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { decodeIdCursor, toPage } from '../../shared/pagination.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import * as repo from './notifications.repository.ts';
import { notificationView } from './notifications.view.ts';

/** A person's notifications: the unread ones with their count, the whole feed, and marking them read. */
export class NotificationsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async unread(principal: Principal, limit: number) {
    const userId = sessionUserId(principal);
    const rows = await repo.listNotifications(this.db, userId, { unreadOnly: true, limit });
    return { items: rows.map(notificationView), unreadCount: await repo.countUnread(this.db, userId) };
  }

  async feed(principal: Principal, page: { limit: number; cursor?: string | undefined }) {
    const userId = sessionUserId(principal);
    const rows = await repo.listNotifications(this.db, userId, {
      unreadOnly: false,
      limit: page.limit + 1,
      before: decodeIdCursor(page.cursor),
    });
    const result = toPage(rows, page.limit, (last) => last.id);
    return { items: result.items.map(notificationView), nextCursor: result.nextCursor };
  }

  async markRead(principal: Principal, body: { ids: number[] } | { all: true }) {
    const userId = sessionUserId(principal);
    const marked = await repo.markRead(this.db, userId, 'ids' in body ? body.ids : 'all', this.clock.now());
    return { marked, unreadCount: await repo.countUnread(this.db, userId) };
  }
}
