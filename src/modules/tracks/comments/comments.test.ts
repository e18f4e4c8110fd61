import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../../test/helpers/context.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../../test/helpers/security-matrix.ts';

const ctx = useTestContext();

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

/** The comments URL of a version lasting 180 seconds. */
async function commentsUrl(team: TestTeam) {
  const track = await ctx.newTrack(team);
  const version = await ctx.newVersion(track, { durationSeconds: 180 });
  return `/api/v1/tracks/${track.id}/versions/${version.id}/comments`;
}

async function comment(url: string, token: string, body: object = { comment: 'nice' }) {
  const res = await call('POST', url, token, body);
  if (res.statusCode !== 201) throw new Error(`comment failed: ${res.statusCode} ${res.body}`);
  return res.json() as { id: number };
}

describe('version comments', () => {
  it('lists comments in timestamp order, general ones first, with replies', async () => {
    const team = await ctx.newTeam();
    const url = await commentsUrl(team);
    const late = await comment(url, team.owner.token, { comment: 'outro', atSeconds: 170.5 });
    const early = await comment(url, team.owner.token, { comment: 'intro', atSeconds: 3 });
    const general = await comment(url, team.owner.token, { comment: 'overall good' });
    const reply = await comment(url, team.owner.token, {
      comment: 'agreed',
      parentId: early.id,
      atSeconds: 4,
    });
    const page = await call('GET', `${url}?limit=3`, team.owner.token);
    expect(page.statusCode).toBe(200);
    expect(page.json().items.map((c: { id: number }) => c.id)).toEqual([general.id, early.id, reply.id]);
    expect(page.json().items[2]).toMatchObject({
      parentId: early.id,
      comment: 'agreed',
      authorId: team.owner.id,
    });
    const next = await call('GET', `${url}?limit=3&cursor=${page.json().nextCursor}`, team.owner.token);
    expect(next.json()).toMatchObject({ items: [{ id: late.id, atSeconds: 170.5 }], nextCursor: null });
  });

  it('validates the timestamp against the duration and the parent (400)', async () => {
    const team = await ctx.newTeam();
    const url = await commentsUrl(team);
    const other = await commentsUrl(team);
    const top = await comment(url, team.owner.token);
    const reply = await comment(url, team.owner.token, { comment: 're', parentId: top.id });
    const foreign = await comment(other, team.owner.token);
    const bodies: [object, string][] = [
      [{ comment: 'x', atSeconds: 180.01 }, '/body/atSeconds'],
      [{ comment: 'x', atSeconds: -1 }, '/body/atSeconds'],
      [{ comment: 'x', atSeconds: '10' }, '/body/atSeconds'],
      [{ comment: '' }, '/body/comment'],
      [{}, '/body/comment'],
      [{ comment: 'x', parentId: reply.id }, '/body/parentId'],
      [{ comment: 'x', parentId: foreign.id }, '/body/parentId'],
      [{ comment: 'x', attachments: [] }, '/body'],
    ];
    for (const [body, path] of bodies) {
      const res = await call('POST', url, team.owner.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        res
          .json()
          .details.map((d: { path: string }) => d.path)
          .join(' '),
      ).toContain(path);
    }
    expect((await call('POST', url, team.owner.token, { comment: 'end', atSeconds: 180 })).statusCode).toBe(
      201,
    );
  });

  it('lets the author or a team admin edit and delete, nobody else', async () => {
    const team = await ctx.newTeam();
    const author = await ctx.addMember(team);
    const peer = await ctx.addMember(team);
    const admin = await ctx.addMember(team, 'admin');
    const url = await commentsUrl(team);
    const mine = await comment(url, author.token, { comment: 'first', atSeconds: 10 });

    expect((await call('PATCH', `${url}/${mine.id}`, peer.token, { comment: 'hijack' })).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `${url}/${mine.id}`, peer.token)).statusCode).toBe(403);

    const edited = await call('PATCH', `${url}/${mine.id}`, author.token, {
      comment: 'second',
      atSeconds: null,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ comment: 'second', atSeconds: null, editedAt: expect.any(String) });
    expect((await call('PATCH', `${url}/${mine.id}`, author.token, { atSeconds: 999 })).statusCode).toBe(400);
    expect((await call('PATCH', `${url}/${mine.id}`, author.token, {})).statusCode).toBe(400);
    expect((await call('PATCH', `${url}/${mine.id}`, admin.token, { comment: 'moderated' })).statusCode).toBe(
      200,
    );

    const reply = await comment(url, peer.token, { comment: 'reply', parentId: mine.id });
    expect((await call('DELETE', `${url}/${mine.id}`, admin.token)).statusCode).toBe(204);
    const list = await call('GET', url, team.owner.token);
    expect(list.json().items.map((c: { id: number }) => c.id)).not.toContain(reply.id);
    expect((await call('DELETE', `${url}/${mine.id}`, admin.token)).statusCode).toBe(404);
  });

  it('adds and removes reactions idempotently, one per user and emoji', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team);
    const url = await commentsUrl(team);
    const target = await comment(url, team.owner.token);
    const react = (token: string, emoji: string) =>
      call('POST', `${url}/${target.id}/reactions`, token, { emoji });
    expect((await react(team.owner.token, '🔥')).statusCode).toBe(200);
    const twice = await react(team.owner.token, '🔥');
    expect(twice.json().reactions).toEqual([{ emoji: '🔥', count: 1, userIds: [team.owner.id] }]);
    await react(member.token, '🔥');
    const third = await react(member.token, '👍');
    expect(third.json().reactions).toEqual([
      { emoji: '🔥', count: 2, userIds: [team.owner.id, member.id] },
      { emoji: '👍', count: 1, userIds: [member.id] },
    ]);
    const remove = (token: string, emoji: string) =>
      call('DELETE', `${url}/${target.id}/reactions/${encodeURIComponent(emoji)}`, token);
    expect((await remove(team.owner.token, '🔥')).statusCode).toBe(204);
    expect((await remove(team.owner.token, '🔥')).statusCode).toBe(204);
    const list = await call('GET', url, team.owner.token);
    expect(list.json().items[0].reactions).toEqual([
      { emoji: '🔥', count: 1, userIds: [member.id] },
      { emoji: '👍', count: 1, userIds: [member.id] },
    ]);
    for (const emoji of ['', 'has space', 'x'.repeat(33)])
      expect((await react(team.owner.token, emoji)).statusCode, emoji).toBe(400);
    expect(
      (await call('POST', `${url}/999999/reactions`, team.owner.token, { emoji: '🔥' })).statusCode,
    ).toBe(404);
  });
});

const withComment = (suffix: string, payload?: object) => async (team: TestTeam) => {
  const url = await commentsUrl(team);
  const c = await comment(url, team.owner.token);
  if (suffix.includes('/reactions/'))
    await call('POST', `${url}/${c.id}/reactions`, team.owner.token, { emoji: '🔥' });
  return { url: `${url}/${c.id}${suffix}`, ...(payload ? { payload } : {}) };
};

const P = '/api/v1/tracks/{id}/versions/{versionId}/comments';
const cases: MatrixCase[] = [
  { method: 'GET', path: P, shareLevel: 'read', build: async (team) => ({ url: await commentsUrl(team) }) },
  {
    method: 'POST',
    path: P,
    shareLevel: 'comment',
    build: async (team) => ({ url: await commentsUrl(team), payload: { comment: 'm' } }),
  },
  {
    method: 'PATCH',
    path: `${P}/{commentId}`,
    shareLevel: 'owner',
    makerKeeps: true,
    build: withComment('', { comment: 'edited' }),
  },
  {
    method: 'DELETE',
    path: `${P}/{commentId}`,
    shareLevel: 'owner',
    makerKeeps: true,
    build: withComment(''),
  },
  {
    method: 'POST',
    path: `${P}/{commentId}/reactions`,
    shareLevel: 'comment',
    build: withComment('/reactions', { emoji: '👍' }),
  },
  {
    method: 'DELETE',
    path: `${P}/{commentId}/reactions/{emoji}`,
    shareLevel: 'comment',
    build: withComment(`/reactions/${encodeURIComponent('🔥')}`),
  },
];

describeSecurityMatrix(ctx, cases);
