import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { decodeIdCursor, toPage, withTotal } from '../../shared/pagination.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import * as repo from './notifications.repository.ts';
import { notificationView } from './notifications.view.ts';

type Page = { limit: number; cursor?: string | undefined; count?: boolean };

/** A person's notifications: the unread ones with their count, the whole feed, and marking them read. */
export class NotificationsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** A page of the unread notifications, newest first, with how many are unread (`total` too, when asked). */
  async unread(principal: Principal, page: Page) {
    const userId = sessionUserId(principal);
    const result = await this.page(userId, true, page);
    const unreadCount = await repo.countUnread(this.db, userId);
    return { ...result, unreadCount, ...(page.count ? { total: unreadCount } : {}) };
  }

  /** A page of every notification, newest first. */
  async feed(principal: Principal, page: Page) {
    const userId = sessionUserId(principal);
    return withTotal(await this.page(userId, false, page), page.count, () =>
      repo.countNotifications(this.db, userId, { unreadOnly: false }),
    );
  }

  private async page(userId: string, unreadOnly: boolean, page: Page) {
    const rows = await repo.listNotifications(this.db, userId, {
      unreadOnly,
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
