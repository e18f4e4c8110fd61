import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { chatHelpers } from '../chat.test-support.ts';

const clock = new TestClock();
const ctx = useTestContext({ clock });
const { call, expectOk, newThread, post } = chatHelpers(ctx);

let team: TestTeam;
let member: TestUser;
let third: TestUser;

beforeAll(async () => {
  team = await ctx.newTeam();
  member = await ctx.addMember(team, 'member');
  third = await ctx.addMember(team, 'member');
});

const url = (threadId: string, tail: string) => `/api/v1/chat/threads/${threadId}/${tail}`;

describe('typing', () => {
  it('marks the caller as typing for 6 seconds, lists the others, and clears on false', async () => {
    const thread = await newThread(team);
    expect((await call('POST', url(thread.id, 'typing'), member, { typing: true })).status).toBe(204);
    await call('POST', url(thread.id, 'typing'), third, { typing: true });
    const seen = await call('GET', url(thread.id, 'typing'), team.owner);
    expect(seen.body).toEqual({
      items: expect.arrayContaining([
        { userId: member.id, expiresAt: new Date(clock.now().getTime() + 6_000).toISOString() },
        { userId: third.id, expiresAt: expect.any(String) },
      ]),
      nextCursor: null,
    });
    const own = await call('GET', url(thread.id, 'typing'), member);
    expect(own.body.items.map((t: { userId: string }) => t.userId)).toEqual([third.id]);
    await call('POST', url(thread.id, 'typing'), third, { typing: false });
    expect((await call('GET', url(thread.id, 'typing'), team.owner)).body.items).toHaveLength(1);
    clock.advance(6_001);
    expect((await call('GET', url(thread.id, 'typing'), team.owner)).body.items).toEqual([]);
    expect((await call('POST', url(thread.id, 'typing'), member, { typing: 'yes' })).status).toBe(400);
    const outsider = await ctx.newTeam();
    expect((await call('POST', url(thread.id, 'typing'), outsider.owner, { typing: true })).status).toBe(404);
  });
});

describe('read markers', () => {
  it('move forward only, count unread messages of others, and list as receipts', async () => {
    const thread = await newThread(team);
    const [a, b, c] = [
      await post(thread.id, team.owner, 'a'),
      await post(thread.id, team.owner, 'b'),
      await post(thread.id, team.owner, 'c'),
    ];
    await post(thread.id, member, 'mine does not count');
    const unread = async () =>
      (await expectOk('GET', `/api/v1/chat/threads/${thread.id}`, member)).unreadCount;
    expect(await unread()).toBe(3);
    const moved = await call('POST', url(thread.id, 'read'), member, { lastReadMessageId: b.id });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({
      userId: member.id,
      lastReadMessageId: b.id,
      readAt: clock.now().toISOString(),
    });
    expect(await unread()).toBe(1);
    const back = await call('POST', url(thread.id, 'read'), member, { lastReadMessageId: a.id });
    expect(back.status).toBe(200);
    expect(back.body.lastReadMessageId).toBe(b.id);
    await call('POST', url(thread.id, 'read'), member, { lastReadMessageId: c.id });
    expect(await unread()).toBe(0);

    const elsewhere = await post((await newThread(team)).id, team.owner, 'other thread');
    const wrong = await call('POST', url(thread.id, 'read'), member, { lastReadMessageId: elsewhere.id });
    expect(wrong.status).toBe(404);
    expect((await call('POST', url(thread.id, 'read'), member, { lastReadMessageId: 'x' })).status).toBe(400);

    await call('POST', url(thread.id, 'read'), team.owner, { lastReadMessageId: a.id });
    const receipts = await call('GET', url(thread.id, 'read-receipts'), third);
    expect(receipts.body.items).toEqual(
      expect.arrayContaining([
        { userId: member.id, lastReadMessageId: c.id, readAt: expect.any(String) },
        { userId: team.owner.id, lastReadMessageId: a.id, readAt: expect.any(String) },
      ]),
    );
    expect(receipts.body.items).toHaveLength(2);
    const first = await call('GET', `${url(thread.id, 'read-receipts')}?limit=1`, third);
    const next = await call(
      'GET',
      `${url(thread.id, 'read-receipts')}?limit=1&cursor=${first.body.nextCursor}`,
      third,
    );
    expect([...first.body.items, ...next.body.items]).toEqual(receipts.body.items);
  });
});

describe('pins', () => {
  it('are per person', async () => {
    const thread = await newThread(team);
    const pinned = await call('POST', url(thread.id, 'pin'), member, { pinned: true });
    expect(pinned.status).toBe(200);
    expect(pinned.body).toMatchObject({ id: thread.id, pinned: true });
    expect((await expectOk('GET', `/api/v1/chat/threads/${thread.id}`, third)).pinned).toBe(false);
    const unpinned = await call('POST', url(thread.id, 'pin'), member, { pinned: false });
    expect(unpinned.body.pinned).toBe(false);
    expect((await call('POST', url(thread.id, 'pin'), member, {})).status).toBe(400);
  });
});
