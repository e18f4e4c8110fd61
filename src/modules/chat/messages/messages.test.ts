import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { albumHelpers } from '../../../../test/helpers/albums.ts';
import { type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { chatMessageMentions, chatMessages } from '../../../db/schema/index.ts';
import { chatHelpers } from '../chat.test-support.ts';

const ctx = useTestContext();
const { call, newThread, post, eventsAbout } = chatHelpers(ctx);

let team: TestTeam;
let admin: TestUser;
let member: TestUser;
let other: TestTeam;

beforeAll(async () => {
  team = await ctx.newTeam();
  admin = await ctx.addMember(team, 'admin');
  member = await ctx.addMember(team, 'member');
  other = await ctx.newTeam();
});

const messagesUrl = (threadId: string) => `/api/v1/chat/threads/${threadId}/messages`;

describe('chat messages', () => {
  it('writes a message and pages the thread newest first', async () => {
    const thread = await newThread(team);
    const created = await call('POST', messagesUrl(thread.id), member, { content: 'first' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      threadId: thread.id,
      authorId: member.id,
      botId: null,
      content: 'first',
      createdAt: expect.any(String),
      editedAt: null,
      deleted: false,
      reactions: [],
      mentions: [],
    });
    const second = await post(thread.id, team.owner, 'second');
    const third = await post(thread.id, member, 'third');
    const page = await call('GET', `${messagesUrl(thread.id)}?limit=2`, team.owner);
    expect(page.body.items.map((m: { id: string }) => m.id)).toEqual([third.id, second.id]);
    const rest = await call(
      'GET',
      `${messagesUrl(thread.id)}?limit=2&cursor=${page.body.nextCursor}`,
      team.owner,
    );
    expect(rest.body).toEqual({ items: [created.body], nextCursor: null });
    expect(await eventsAbout(created.body.id)).toMatchObject([
      {
        teamId: team.id,
        subjectType: 'chat_message',
        type: 'created',
        streamType: 'message.created',
        threadId: thread.id,
        payload: { message: { id: created.body.id } },
      },
    ]);
  });

  it('takes 1 to 10,000 characters of content and nothing else, changing nothing otherwise', async () => {
    const thread = await newThread(team);
    expect((await call('POST', messagesUrl(thread.id), member, { content: 'x'.repeat(10_000) })).status).toBe(
      201,
    );
    for (const payload of [
      { content: '' },
      { content: ' \n\t ' },
      { content: 'x'.repeat(10_001) },
      { content: 'ok', extra: 1 },
      { content: 'nul \u0000 here' },
      {},
    ]) {
      const res = await call('POST', messagesUrl(thread.id), member, payload);
      expect(res.status, JSON.stringify(payload).slice(0, 50)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    const rows = await ctx.database.db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.threadId, thread.id));
    expect(rows).toHaveLength(1);
  });

  it('hides threads from outsiders and answers 404 for them', async () => {
    const thread = await newThread(team);
    const theirs = await newThread(other);
    expect((await call('POST', messagesUrl(thread.id), other.owner, { content: 'hi' })).status).toBe(404);
    expect((await call('GET', messagesUrl(thread.id), other.owner)).status).toBe(404);
    const group = await newThread(team, { type: 'group', memberIds: [member.id] });
    expect((await call('GET', messagesUrl(group.id), admin)).status).toBe(404);
    const mine = await post(thread.id, member);
    const wrongThread = await call('PATCH', `${messagesUrl(theirs.id)}/${mine.id}`, member, { content: 'x' });
    expect(wrongThread.status).toBe(404);
    const elsewhere = await call('DELETE', `${messagesUrl(group.id)}/${mine.id}`, member);
    expect(elsewhere.status).toBe(404);
  });

  it('keeps mentions of targets the thread can see and leaves the others as text', async () => {
    const track = await ctx.newTrack(team);
    const foreignTrack = await ctx.newTrack(other);
    const album = await albumHelpers(ctx).newAlbum(team);
    const contact = await ctx.request({
      method: 'POST',
      url: '/api/v1/contacts/',
      token: team.owner.token,
      payload: { team_id: team.id, name: 'Maya' },
    });
    expect(contact.statusCode).toBe(201);
    const group = await newThread(team, { type: 'group', memberIds: [member.id] });
    const content = [
      `@[Member](user:${member.id.toUpperCase()})`,
      `@[Admin](user:${admin.id})`,
      `@[Song](track:${track.id})`,
      `@[Theirs](track:${foreignTrack.id})`,
      `@[Record](album:${album.id})`,
      `@[Maya](contact:${contact.json().id})`,
      '@[Nobody](user:42)',
      '@[Huge](track:99999999999)',
      `@[Again](track:${track.id})`,
    ].join(' ');
    const message = await post(group.id, team.owner, content);
    expect(message.content).toBe(content);
    expect(message.mentions).toEqual([
      { kind: 'user', id: member.id, label: 'Member' },
      { kind: 'track', id: String(track.id), label: 'Song' },
      { kind: 'album', id: String(album.id), label: 'Record' },
      { kind: 'contact', id: String(contact.json().id), label: 'Maya' },
    ]);
    const stored = await ctx.database.db
      .select()
      .from(chatMessageMentions)
      .where(eq(chatMessageMentions.messageId, message.id));
    expect(stored.map((m) => `${m.kind}:${m.targetId}`).sort()).toEqual(
      [`user:${member.id}`, `track:${track.id}`, `album:${album.id}`, `contact:${contact.json().id}`].sort(),
    );
    const listed = await call('GET', messagesUrl(group.id), member);
    expect(listed.body.items[0].mentions).toEqual(message.mentions);
  });

  it('lets only the author edit, setting editedAt and reading mentions again', async () => {
    const thread = await newThread(team);
    const message = await post(thread.id, member, 'draft');
    expect(
      (await call('PATCH', `${messagesUrl(thread.id)}/${message.id}`, admin, { content: 'x' })).status,
    ).toBe(403);
    const edited = await call('PATCH', `${messagesUrl(thread.id)}/${message.id}`, member, {
      content: `now with @[Owner](user:${team.owner.id})`,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      content: `now with @[Owner](user:${team.owner.id})`,
      editedAt: expect.any(String),
      mentions: [{ kind: 'user', id: team.owner.id, label: 'Owner' }],
    });
    const missing = await call(
      'PATCH',
      `${messagesUrl(thread.id)}/0190a6e0-0000-7000-8000-000000000000`,
      member,
      {
        content: 'x',
      },
    );
    expect(missing.status).toBe(404);
  });

  it('deletes softly for the author or a team admin, once', async () => {
    const thread = await newThread(team);
    const mine = await post(thread.id, member, 'mine');
    const ownerMessage = await post(thread.id, team.owner, 'the owner’s');
    await call('POST', `${messagesUrl(thread.id)}/${mine.id}/reactions`, team.owner, { emoji: '🔥' });
    expect((await call('DELETE', `${messagesUrl(thread.id)}/${ownerMessage.id}`, member)).status).toBe(403);
    expect((await call('DELETE', `${messagesUrl(thread.id)}/${mine.id}`, member)).status).toBe(204);
    expect((await call('DELETE', `${messagesUrl(thread.id)}/${mine.id}`, member)).status).toBe(204);
    expect((await call('DELETE', `${messagesUrl(thread.id)}/${ownerMessage.id}`, admin)).status).toBe(204);
    const listed = await call('GET', messagesUrl(thread.id), member);
    for (const item of listed.body.items) {
      expect(item).toMatchObject({ deleted: true, content: null, reactions: [], mentions: [] });
    }
    const [row] = await ctx.database.db.select().from(chatMessages).where(eq(chatMessages.id, mine.id));
    expect(row!.content).toBe('');
    const edit = await call('PATCH', `${messagesUrl(thread.id)}/${mine.id}`, member, { content: 'back' });
    expect(edit.status).toBe(409);
    const react = await call('POST', `${messagesUrl(thread.id)}/${mine.id}/reactions`, member, {
      emoji: '👍',
    });
    expect(react.status).toBe(409);
  });

  it('adds reactions idempotently and counts them per emoji with the caller’s own marked', async () => {
    const thread = await newThread(team);
    const message = await post(thread.id, member, 'react to me');
    const url = `${messagesUrl(thread.id)}/${message.id}/reactions`;
    const first = await call('POST', url, member, { emoji: '👍' });
    expect(first.status).toBe(200);
    await call('POST', url, member, { emoji: '👍' });
    await call('POST', url, team.owner, { emoji: '👍' });
    await call('POST', url, team.owner, { emoji: ':tada:' });
    const seen = await call('GET', messagesUrl(thread.id), member);
    expect(seen.body.items[0].reactions).toEqual([
      { emoji: '👍', count: 2, me: true },
      { emoji: ':tada:', count: 1, me: false },
    ]);
    for (const emoji of ['', 'two words', 'x'.repeat(33), 'a/b', 'tab\t']) {
      expect((await call('POST', url, member, { emoji })).status, emoji).toBe(400);
    }
    expect((await call('DELETE', `${url}/${encodeURIComponent('👍')}`, member)).status).toBe(204);
    expect((await call('DELETE', `${url}/${encodeURIComponent('👍')}`, member)).status).toBe(204);
    const after = await call('GET', messagesUrl(thread.id), member);
    expect(after.body.items[0].reactions).toEqual([
      { emoji: '👍', count: 1, me: false },
      { emoji: ':tada:', count: 1, me: false },
    ]);
    const missing = `${messagesUrl(thread.id)}/0190a6e0-0000-7000-8000-000000000000/reactions`;
    expect((await call('POST', missing, member, { emoji: '👍' })).status).toBe(404);
  });
});
