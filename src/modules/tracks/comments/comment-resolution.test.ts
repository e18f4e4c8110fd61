import { describe, expect, it } from 'vitest';
import { type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { ownerEvents } from '../../../../test/helpers/events.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../../test/helpers/security-matrix.ts';

const ctx = useTestContext();

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

/** The comments URL of a new track's version (shared with the team's `shareWith`, as the matrix asks). */
async function commentsUrl(team: TestTeam) {
  const track = await ctx.newTrack(team);
  return { track, url: `/api/v1/tracks/${track.id}/versions/${track.versionId}/comments` };
}

async function comment(
  url: string,
  by: TestUser,
  body: object = { comment: 'Snare too loud', atSeconds: 12 },
) {
  const res = await call('POST', url, by.token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number };
}

const feedOf = async (user: TestUser) =>
  (await call('GET', '/api/v1/user/notification-feed', user.token)).json().items as {
    kind: string;
    subjectId: string;
    data: Record<string, unknown>;
  }[];

describe('resolving comments', () => {
  it('resolves and reopens a comment, records both events and tells the author once someone else resolves', async () => {
    const team = await ctx.newTeam();
    const author = await ctx.addMember(team);
    const { track, url } = await commentsUrl(team);
    const c = await comment(url, author);

    const fresh = (await call('GET', url, author.token)).json().items[0];
    expect(fresh).toMatchObject({ resolvedAt: null, resolvedBy: null, carriedFrom: null, todoId: null });

    const resolved = await call('POST', `${url}/${c.id}/resolve`, team.owner.token);
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({ id: c.id, resolvedBy: team.owner.id });
    expect(Date.parse(resolved.json().resolvedAt)).not.toBeNaN();
    // Resolving again changes nothing and records nothing.
    const again = await call('POST', `${url}/${c.id}/resolve`, team.owner.token);
    expect(again.json().resolvedAt).toBe(resolved.json().resolvedAt);

    const reopened = await call('POST', `${url}/${c.id}/unresolve`, author.token);
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json()).toMatchObject({ resolvedAt: null, resolvedBy: null });
    expect((await call('POST', `${url}/${c.id}/unresolve`, author.token)).statusCode).toBe(200);

    const types = (await ownerEvents(ctx.database.db, { teamId: team.id }))
      .filter((e) => e.type.startsWith('comment.'))
      .map((e) => [e.type, e.payload]);
    const ofComment = { commentId: c.id, versionId: track.versionId, trackId: track.id, teamId: team.id };
    expect(types.slice(1)).toEqual([
      ['comment.resolved', ofComment],
      ['comment.unresolved', ofComment],
    ]);

    const told = (await feedOf(author)).filter((n) => n.kind === 'comment_resolved');
    expect(told).toEqual([
      expect.objectContaining({
        subjectId: String(c.id),
        data: { trackId: track.id, versionId: track.versionId, commentId: c.id, parentId: null },
      }),
    ]);
    // Resolving one's own comment tells nobody.
    await call('POST', `${url}/${c.id}/resolve`, author.token);
    expect((await feedOf(author)).filter((n) => n.kind === 'comment_resolved')).toHaveLength(1);
  });

  it('lets a team the track is shared with resolve, and keeps other versions’ comments out of reach', async () => {
    const team = await ctx.newTeam();
    const guest = await ctx.newTeam(team.owner);
    const guestMember = await ctx.addMember(guest);
    const { url } = await commentsUrl({ ...team, shareWith: [guest.id] });
    const { url: other } = await commentsUrl(team);
    const c = await comment(url, team.owner);
    const res = await call('POST', `${url}/${c.id}/resolve`, guestMember.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().resolvedBy).toBe(guestMember.id);
    expect((await call('POST', `${other}/${c.id}/resolve`, team.owner.token)).statusCode).toBe(404);
    expect((await call('POST', `${url}/999999/unresolve`, team.owner.token)).statusCode).toBe(404);
  });
});

describe('turning a comment into a to-do', () => {
  it('makes a to-do with the comment’s text that keeps the link; a second call is 409', async () => {
    const team = await ctx.newTeam();
    const assignee = await ctx.addMember(team);
    const { track, url } = await commentsUrl(team);
    const c = await comment(url, assignee, { comment: ' Re-record the bridge ', atSeconds: 40 });

    const made = await call('POST', `${url}/${c.id}/todo`, team.owner.token, {
      assigneeId: assignee.id,
      dueDate: '2031-02-01',
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({
      versionId: track.versionId,
      todo: 'Re-record the bridge',
      done: false,
      assigneeId: assignee.id,
      dueDate: '2031-02-01',
      commentId: c.id,
      carriedFrom: null,
      createdBy: team.owner.id,
    });
    const listed = (await call('GET', url, team.owner.token)).json().items[0];
    expect(listed.todoId).toBe(made.json().id);

    const second = await call('POST', `${url}/${c.id}/todo`, team.owner.token, {});
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('conflict');

    // Once the to-do is gone the comment may get a new one.
    const todos = `/api/v1/tracks/${track.id}/versions/${track.versionId}/todos`;
    const removed = await ctx.request({
      method: 'DELETE',
      url: `${todos}/${made.json().id}`,
      token: team.owner.token,
    });
    expect(removed.statusCode).toBe(204);
    expect((await call('GET', url, team.owner.token)).json().items[0].todoId).toBeNull();
    expect((await call('POST', `${url}/${c.id}/todo`, team.owner.token, {})).statusCode).toBe(201);
  });

  it('refuses an assignee outside the owning team (400), a sharing team (403) and another version (404)', async () => {
    const team = await ctx.newTeam();
    const guest = await ctx.newTeam(team.owner);
    const guestMember = await ctx.addMember(guest);
    const outsider = await ctx.newUser();
    const { url } = await commentsUrl({ ...team, shareWith: [guest.id] });
    const { url: other } = await commentsUrl(team);
    const c = await comment(url, guestMember);
    const bad = await call('POST', `${url}/${c.id}/todo`, team.owner.token, { assigneeId: outsider.id });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('/body/assigneeId');
    expect((await call('POST', `${url}/${c.id}/todo`, guestMember.token, {})).statusCode).toBe(403);
    expect((await call('POST', `${other}/${c.id}/todo`, team.owner.token, {})).statusCode).toBe(404);
    const raced = await Promise.all([
      call('POST', `${url}/${c.id}/todo`, team.owner.token, {}),
      call('POST', `${url}/${c.id}/todo`, team.owner.token, {}),
    ]);
    expect(raced.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });
});

const withComment = (suffix: string, payload?: object) => async (team: TestTeam) => {
  const { url } = await commentsUrl(team);
  const c = await comment(url, team.owner);
  return { url: `${url}/${c.id}${suffix}`, ...(payload ? { payload } : {}) };
};

const P = '/api/v1/tracks/{id}/versions/{versionId}/comments/{commentId}';
const cases: MatrixCase[] = [
  { method: 'POST', path: `${P}/resolve`, shareLevel: 'comment', build: withComment('/resolve') },
  { method: 'POST', path: `${P}/unresolve`, shareLevel: 'comment', build: withComment('/unresolve') },
  { method: 'POST', path: `${P}/todo`, shareLevel: 'owner', build: withComment('/todo', {}) },
];

describeSecurityMatrix(ctx, cases);
