import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { albumHelpers } from '../../../../test/helpers/albums.ts';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { callWith, versionsBase } from '../../../../test/helpers/version-uploads.ts';
import { shareLinkActivity } from '../../../db/schema/index.ts';
import { guestHelpers, insertShareLink } from './guest.test-support.ts';
import { GUEST_COMMENT_LIMIT } from './guest-comments.service.ts';

const ctx = useStorageTestContext('local');
const call = callWith(ctx);
const { trackWithAudio, wayInStats, eventsOf } = guestHelpers(ctx);

const comment = (url: string, payload: object, ip = '127.0.0.1') =>
  ctx.request({ method: 'POST', url: `${url}/comments`, payload, remoteAddress: ip });
const guestComments = async (url: string, query = '') => {
  const res = await ctx.request({ method: 'GET', url: `${url}/comments${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('guest comments through review links', () => {
  it('answers 403 comments_not_allowed when the link does not take comments', async () => {
    const team = await ctx.newTeam();
    const { track } = await trackWithAudio(team);
    const link = await insertShareLink(ctx, team, { target: { trackId: track.id } });
    const res = await comment(link.general.url, { name: 'Ana', body: 'Nice', timestampSeconds: 0.1 });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('comments_not_allowed');
  });

  it('writes a comment of the version the team sees with the guest’s name, counted and announced', async () => {
    const team = await ctx.newTeam();
    const { track, versionId } = await trackWithAudio(team);
    const link = await insertShareLink(ctx, team, {
      target: { trackId: track.id },
      allowComments: true,
      recipients: ['ana@label.test'],
    });
    const ana = link.recipients[0]!;
    const res = await comment(ana.url, {
      name: ' Ana (A&R) ',
      body: 'Snare too loud',
      timestampSeconds: 0.2,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      versionId,
      parentId: null,
      timestampSeconds: 0.2,
      body: 'Snare too loud',
      author: { kind: 'guest', name: 'Ana (A&R)' },
      createdAt: ctx.clock.now().toISOString(),
    });
    const commentId = res.json().id;

    const teamList = await call('GET', `${versionsBase(track)}/${versionId}/comments`, team.owner.token);
    expect(teamList.json().items).toEqual([
      expect.objectContaining({
        id: commentId,
        authorId: null,
        atSeconds: 0.2,
        comment: 'Snare too loud',
        guest: { name: 'Ana (A&R)', shareLinkId: link.id },
      }),
    ]);
    const reply = await call('POST', `${versionsBase(track)}/${versionId}/comments`, team.owner.token, {
      comment: 'Fixed in the next mix',
      parentId: commentId,
    });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json().guest).toBeNull();

    // Any way in of the link lists the comments written through the link and the team's replies.
    const listed = await guestComments(link.general.url);
    expect(listed.items.map((c: { id: number; author: object }) => [c.id, c.author])).toEqual([
      [commentId, { kind: 'guest', name: 'Ana (A&R)' }],
      [reply.json().id, { kind: 'team', name: null }],
    ]);
    const first = await guestComments(link.general.url, '?limit=1');
    expect(first.items).toHaveLength(1);
    const second = await guestComments(link.general.url, `?limit=1&cursor=${first.nextCursor}`);
    expect(second).toEqual({ items: [listed.items[1]], nextCursor: null });

    expect(await wayInStats(ana.id)).toMatchObject({ comments: 1 });
    const kinds = await ctx.database.db
      .select({ kind: shareLinkActivity.kind, versionId: shareLinkActivity.versionId })
      .from(shareLinkActivity)
      .where(and(eq(shareLinkActivity.recipientId, ana.id), eq(shareLinkActivity.kind, 'comment')));
    expect(kinds).toEqual([{ kind: 'comment', versionId }]);
    const [created] = await eventsOf('comment.created', commentId);
    expect(created).toMatchObject({
      teamId: team.id,
      actorUserId: null,
      actorKeyId: null,
      payload: {
        commentId,
        versionId,
        trackId: track.id,
        guest: { name: 'Ana (A&R)', shareLinkId: link.id },
      },
    });
  });

  it('a link of several versions needs versionId, one it shows, and a time within the audio', async () => {
    const team = await ctx.newTeam();
    const albums = albumHelpers(ctx);
    const a = await trackWithAudio(team);
    const b = await trackWithAudio(team);
    const other = await trackWithAudio(team);
    const album = await albums.newAlbum(team);
    await albums.addTracks(team, album.id, [a.track.id, b.track.id]);
    const link = await insertShareLink(ctx, team, { target: { albumId: album.id }, allowComments: true });
    const fields = { name: 'Ana', body: 'Hi', timestampSeconds: 0.1 };
    const problems = [
      [await comment(link.general.url, fields), '/body/versionId'],
      [await comment(link.general.url, { ...fields, versionId: other.versionId }), '/body/versionId'],
      [
        await comment(link.general.url, { ...fields, versionId: b.versionId, timestampSeconds: 999 }),
        '/body/timestampSeconds',
      ],
      [await comment(link.general.url, { ...fields, name: '   ' }), '/body/name'],
    ] as const;
    for (const [res, path] of problems) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details[0].path).toBe(path);
    }
    const ok = await comment(link.general.url, { ...fields, versionId: b.versionId });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().versionId).toBe(b.versionId);
  });

  it(`limits comments to ${GUEST_COMMENT_LIMIT.points} an hour per link and client`, async () => {
    const team = await ctx.newTeam();
    const { track } = await trackWithAudio(team);
    const link = await insertShareLink(ctx, team, { target: { trackId: track.id }, allowComments: true });
    const fields = { name: 'Ana', body: 'Again', timestampSeconds: 0 };
    for (let i = 0; i < GUEST_COMMENT_LIMIT.points; i++)
      expect((await comment(link.general.url, fields, '10.1.1.1')).statusCode).toBe(201);
    const limited = await comment(link.general.url, fields, '10.1.1.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await comment(link.general.url, fields, '10.1.1.2')).statusCode).toBe(201);
  });
});
