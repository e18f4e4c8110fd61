import { describe, expect, it } from 'vitest';
import { albumHelpers } from '../../../test/helpers/albums.ts';
import { type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';

const ctx = useTestContext();
const albums = albumHelpers(ctx);

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

const share = (trackId: number, teamId: number, token: string) =>
  call('POST', `/api/v1/tracks/${trackId}/teams`, token, { teamId });
const unshare = (trackId: number, teamId: number, token: string) =>
  call('DELETE', `/api/v1/tracks/${trackId}/teams/${teamId}`, token);

async function setRole(team: TestTeam, user: TestUser, role: 'admin' | 'member') {
  const res = await call('PATCH', `/api/v1/teams/${team.id}/members/${user.id}`, team.owner.token, { role });
  expect(res.statusCode, res.body).toBe(200);
}

async function removeMember(team: TestTeam, user: TestUser) {
  const res = await call('DELETE', `/api/v1/teams/${team.id}/members/${user.id}`, team.owner.token);
  expect(res.statusCode, res.body).toBe(204);
}

/** A track of a new team with two versions and a comment of the team's owner on the first one. */
async function trackWithComment() {
  const team = await ctx.newTeam();
  const track = await ctx.newTrack(team);
  const second = await ctx.newVersion(track);
  const comments = `/api/v1/tracks/${track.id}/versions/${track.versionId}/comments`;
  const comment = await call('POST', comments, team.owner.token, { comment: 'keep this' });
  expect(comment.statusCode, comment.body).toBe(201);
  return { team, track, second, comments, commentId: comment.json().id as number };
}

/** Every change of the owning team's data a caller seeing the track through a share must be refused. */
async function expectOwnerChangesRefused(
  token: string,
  { team, track, second, comments, commentId }: Awaited<ReturnType<typeof trackWithComment>>,
) {
  const base = `/api/v1/tracks/${track.id}`;
  const attempts: [Method, string, object?][] = [
    ['DELETE', `${base}/versions/${second.id}`],
    ['PATCH', `${comments}/${commentId}`, { comment: 'moderated' }],
    ['DELETE', `${comments}/${commentId}`],
    ['DELETE', base],
    ['DELETE', `${base}?mode=hard`],
    ['PATCH', base, { title: 'Taken over' }],
    ['PATCH', `${base}/versions/${track.versionId}/metadata`, { name: 'Renamed' }],
    ['POST', `${base}/versions/${track.versionId}/todos`, { todo: 'mine now' }],
  ];
  for (const [method, url, payload] of attempts) {
    const res = await call(method, url, token, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
    expect(res.json().code).toBe('forbidden');
  }
  // Nothing changed.
  const owner = team.owner.token;
  expect((await call('GET', base, owner)).json().title).toBe(track.title);
  const left = await call('GET', comments, owner);
  expect(left.json().items).toContainEqual(expect.objectContaining({ id: commentId, comment: 'keep this' }));
  expect((await call('GET', `${base}/versions`, owner)).json().items).toHaveLength(2);
  expect((await call('GET', `${base}/versions/${track.versionId}/todos`, owner)).json().items).toEqual([]);
}

describe('track sharing', () => {
  it('leaves a removed member who had shared the track into their own team with read and comment only', async () => {
    const setup = await trackWithComment();
    const { team, track, comments } = setup;
    const member = await ctx.addMember(team, 'member');
    const own = await ctx.newTeam(member);
    // A plain member cannot pass the team's track on.
    const refused = await share(track.id, own.id, member.token);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().code).toBe('forbidden');
    // The share exists (made while an admin, or before sharing needed one), then the member is removed.
    await setRole(team, member, 'admin');
    expect((await share(track.id, own.id, member.token)).statusCode).toBe(200);
    await setRole(team, member, 'member');
    await removeMember(team, member);
    const ownAdmin = await ctx.addMember(own, 'admin');

    for (const user of [member, ownAdmin]) {
      expect((await call('GET', `/api/v1/tracks/${track.id}`, user.token)).statusCode).toBe(200);
      await expectOwnerChangesRefused(user.token, setup);
      // Neither can they pass it on, nor end the owning team's share decisions.
      expect((await share(track.id, (await ctx.newTeam(user)).id, user.token)).statusCode).toBe(403);
      expect((await unshare(track.id, own.id, user.token)).statusCode).toBe(403);
    }
    // Reading and commenting stay: their own comments are theirs to edit and delete.
    const mine = await call('POST', comments, member.token, { comment: 'from outside' });
    expect(mine.statusCode, mine.body).toBe(201);
    const reply = await call('POST', comments, ownAdmin.token, {
      comment: 'agreed',
      parentId: mine.json().id,
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const reacted = await call('POST', `${comments}/${setup.commentId}/reactions`, ownAdmin.token, {
      emoji: '👍',
    });
    expect(reacted.statusCode, reacted.body).toBe(200);
    const edited = await call('PATCH', `${comments}/${mine.json().id}`, member.token, { comment: 'edited' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await call('DELETE', `${comments}/${reply.json().id}`, ownAdmin.token)).statusCode).toBe(204);
    // The owning team's admins still moderate everything on its track.
    const admin = await ctx.addMember(team, 'admin');
    const moderated = await call('PATCH', `${comments}/${mine.json().id}`, admin.token, {
      comment: 'tidied',
    });
    expect(moderated.statusCode, moderated.body).toBe(200);
  });

  it('lists the owning team first, then the teams it is shared with by id, in the detail and in lists', async () => {
    const owner = await ctx.newUser();
    // Teams made before the owning team have lower ids than it.
    const [first, second] = [await ctx.newTeam(owner), await ctx.newTeam(owner)];
    const team = await ctx.newTeam(owner);
    const track = await ctx.newTrack(team);
    for (const guest of [second, first])
      expect((await share(track.id, guest.id, owner.token)).statusCode).toBe(200);
    const expected = [team.id, first.id, second.id];
    expect((await call('GET', `/api/v1/tracks/${track.id}`, owner.token)).json().teamIds).toEqual(expected);
    const listed = await call('GET', `/api/v1/tracks/?teamId=${first.id}`, owner.token);
    expect(listed.json().items.map((t: { teamIds: number[] }) => t.teamIds)).toEqual([expected]);
  });

  it('lets only owners and admins of the owning team share and unshare', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const [member, admin] = [await ctx.addMember(team, 'member'), await ctx.addMember(team, 'admin')];
    const guest = await ctx.newTeam(admin);
    await ctx.addMember(guest, 'member', member);
    const guestAdmin = await ctx.addMember(guest, 'admin');

    expect((await share(track.id, guest.id, member.token)).statusCode).toBe(403);
    const shared = await share(track.id, guest.id, admin.token);
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json().teamIds).toEqual([team.id, guest.id]);

    for (const token of [member.token, guestAdmin.token]) {
      const res = await unshare(track.id, guest.id, token);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
    expect((await call('GET', `/api/v1/tracks/${track.id}`, guestAdmin.token)).statusCode).toBe(200);
    expect((await unshare(track.id, guest.id, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `/api/v1/tracks/${track.id}`, guestAdmin.token)).statusCode).toBe(404);
  });

  it('unshares: the other team loses the track from its lists and albums; errors change nothing', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const kept = await ctx.newTrack(team);
    const guest = await ctx.newTeam(team.owner);
    const guestMember = await ctx.addMember(guest, 'member');
    for (const t of [track, kept])
      expect((await share(t.id, guest.id, team.owner.token)).statusCode).toBe(200);
    const album = await albums.newAlbum(guest);
    await albums.addTracks(guest, album.id, [track.id, kept.id]);
    const ownAlbum = await albums.newAlbum(team);
    await albums.addTracks(team, ownAlbum.id, [track.id]);

    // The owning team itself, a team not holding it, a missing track: refused, nothing changes.
    const owning = await unshare(track.id, team.id, team.owner.token);
    expect(owning.statusCode, owning.body).toBe(400);
    expect(owning.json().details).toEqual([{ path: '/params/teamId', message: expect.any(String) }]);
    const stranger = await ctx.newTeam();
    expect((await unshare(track.id, stranger.id, team.owner.token)).statusCode).toBe(404);
    expect((await unshare(2_000_000_000, guest.id, team.owner.token)).statusCode).toBe(404);
    expect((await unshare(track.id, guest.id, (await ctx.newUser()).token)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/tracks/${track.id}`, guestMember.token)).statusCode).toBe(200);

    expect((await unshare(track.id, guest.id, team.owner.token)).statusCode).toBe(204);
    expect((await unshare(track.id, guest.id, team.owner.token)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/tracks/${track.id}`, guestMember.token)).statusCode).toBe(404);
    const comments = `/api/v1/tracks/${track.id}/versions/${track.versionId}/comments`;
    expect((await call('POST', comments, guestMember.token, { comment: 'x' })).statusCode).toBe(404);
    const list = await call('GET', `/api/v1/tracks/?teamId=${guest.id}`, guestMember.token);
    expect(list.json().items.map((t: { id: number }) => t.id)).toEqual([kept.id]);
    const guestAlbum = await albums.getAlbum(guest, album.id, guestMember.token);
    expect(guestAlbum.tracks.map((t: { id: number }) => t.id)).toEqual([kept.id]);
    // The owning team keeps its track, on its own albums too.
    const detail = await call('GET', `/api/v1/tracks/${track.id}`, team.owner.token);
    expect(detail.json().teamIds).toEqual([team.id]);
    const homeAlbum = await albums.getAlbum(team, ownAlbum.id);
    expect(homeAlbum.tracks.map((t: { id: number }) => t.id)).toEqual([track.id]);
  });

  it('lets a key of the owning team with tracks:write unshare, and no key of the sharing team', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const guest = await ctx.newTeam(team.owner);
    expect((await share(track.id, guest.id, team.owner.token)).statusCode).toBe(200);
    const guestKey = await ctx.newApiKey(guest, ['tracks:write']);
    const refused = await unshare(track.id, guest.id, guestKey);
    expect(refused.statusCode, refused.body).toBe(403);
    const key = await ctx.newApiKey(team, ['tracks:write']);
    expect((await unshare(track.id, guest.id, key)).statusCode).toBe(204);
    expect((await call('GET', `/api/v1/tracks/${track.id}`, guestKey)).statusCode).toBe(404);
  });
});
