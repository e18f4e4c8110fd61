import { uuidv7 } from 'uuidv7';
import { describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../test/helpers/account.ts';
import { TestClock, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { followUpTasks, notifications } from '../../db/schema/index.ts';

const NOW = Date.parse('2031-05-20T09:00:00.000Z');
const clock = new TestClock(NOW);
const ctx = useTestContext({ clock });

const get = async (url: string, user: TestUser) => {
  const res = await ctx.request({ method: 'GET', url, token: user.token });
  expect(res.statusCode, `${url} ${res.body}`).toBe(200);
  return res.json();
};

/** Every item of a list, page by page (`limit` each): answers the items in order and the pages seen. */
async function walk(url: string, user: TestUser, limit: number) {
  const items: { id: string | number }[] = [];
  const pages: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const page = await get(`${url}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, user);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== null && pages.length < 50);
  return { items, pages };
}

describe('the inbox pages like every list', () => {
  it('walks every item once, in the order of one whole page, with the counts of the whole inbox', async () => {
    const team = await ctx.newTeam();
    const user = await ctx.newUser();
    await markEmailVerified(ctx, user);
    await ctx.addMember(team, 'member', user);
    for (let i = 0; i < 3; i++) {
      const inviter = await ctx.newTeam();
      const res = await ctx.request({
        method: 'POST',
        url: `/api/v1/teams/${inviter.id}/invites`,
        token: inviter.owner.token,
        payload: { email: user.email },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    // Follow-ups all due at one instant: the order of the ties (kind, then id) must hold across pages.
    const dueAt = new Date(NOW - 3_600_000);
    await ctx.database.db.insert(followUpTasks).values(
      Array.from({ length: 5 }, (_, i) => ({
        id: uuidv7(),
        teamId: team.id,
        userId: user.id,
        botId: 'assistant',
        person: `Person ${i}`,
        dueAt,
      })),
    );

    const whole = await get('/api/v1/inbox/', user);
    expect(whole.items).toHaveLength(8);
    expect(whole.nextCursor).toBeNull();
    expect(whole.counts).toMatchObject({ invites: 3, followUps: 5, total: 8 });
    expect(whole.total).toBeUndefined();

    for (const limit of [1, 2, 3]) {
      const { items, pages } = await walk('/api/v1/inbox/', user, limit);
      expect(items.map((i) => i.id)).toEqual(whole.items.map((i: { id: string }) => i.id));
      for (const page of pages) expect(page.counts).toEqual(whole.counts);
    }
    const counted = await get('/api/v1/inbox/?count=true&limit=2', user);
    expect(counted).toMatchObject({ total: 8 });
    expect(counted.items).toHaveLength(2);
    // A cursor of the counted first page serves the uncounted next one.
    const next = await get(`/api/v1/inbox/?limit=2&cursor=${counted.nextCursor}`, user);
    expect(next.items.map((i: { id: string }) => i.id)).toEqual(
      whole.items.slice(2, 4).map((i: { id: string }) => i.id),
    );
  });

  it('refuses a bad limit or a cursor it did not issue (400)', async () => {
    const user = await ctx.newUser();
    for (const query of ['limit=0', 'limit=201', 'limit=x', 'cursor=abc', 'count=yes']) {
      const res = await ctx.request({ method: 'GET', url: `/api/v1/inbox/?${query}`, token: user.token });
      expect(res.statusCode, query).toBe(400);
    }
  });
});

describe('notifications page like every list', () => {
  async function notify(user: TestUser, count: number, read: boolean) {
    await ctx.database.db.insert(notifications).values(
      Array.from({ length: count }, () => {
        const key = uuidv7();
        return {
          userId: user.id,
          kind: 'mention' as const,
          subjectType: 'chat_message',
          subjectId: key,
          dedupeKey: key,
          readAt: read ? new Date(NOW) : null,
        };
      }),
    );
  }

  it('pages the unread ones with their count, and counts the feed when asked', async () => {
    const user = await ctx.newUser();
    await notify(user, 4, false);
    await notify(user, 2, true);
    await notify(user, 1, false);
    const whole = await get('/api/v1/user/notifications', user);
    expect(whole).toMatchObject({ unreadCount: 5, nextCursor: null });
    expect(whole.items).toHaveLength(5);
    const { items, pages } = await walk('/api/v1/user/notifications', user, 2);
    expect(items.map((n) => n.id)).toEqual(whole.items.map((n: { id: number }) => n.id));
    expect(pages).toHaveLength(3);
    for (const page of pages) expect(page.unreadCount).toBe(5);
    expect((await get('/api/v1/user/notifications?count=true&limit=1', user)).total).toBe(5);

    const feed = await walk('/api/v1/user/notification-feed', user, 3);
    expect(feed.items).toHaveLength(7);
    expect((await get('/api/v1/user/notification-feed?limit=3', user)).total).toBeUndefined();
    expect((await get('/api/v1/user/notification-feed?limit=3&count=true', user)).total).toBe(7);
    // Another person's are neither listed nor counted.
    const other = await ctx.newUser();
    expect(await get('/api/v1/user/notification-feed?count=true', other)).toEqual({
      items: [],
      nextCursor: null,
      total: 0,
    });
  });
});
