import { beforeAll, describe, expect, it } from 'vitest';
import { type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { chatHelpers } from '../chat.test-support.ts';

const ctx = useTestContext();
const { call, expectOk, newThread, post } = chatHelpers(ctx);

let team: TestTeam;
let admin: TestUser;
let member: TestUser;
let another: TestUser;

beforeAll(async () => {
  team = await ctx.newTeam();
  admin = await ctx.addMember(team, 'admin');
  member = await ctx.addMember(team, 'member');
  another = await ctx.addMember(team, 'member');
});

const ids = (body: { items: { id: string }[] }) => body.items.map((t) => t.id);

describe('leaving a thread', () => {
  it('hides a team thread from the caller’s list until a newer message', async () => {
    const thread = await newThread(team);
    await post(thread.id, team.owner, 'before');
    expect((await call('POST', `/api/v1/chat/threads/${thread.id}/leave`, member)).status).toBe(204);
    const listed = await expectOk('GET', `/api/v1/chat/threads?teamId=${team.id}`, member);
    expect(ids(listed as never)).not.toContain(thread.id);
    expect((await call('GET', `/api/v1/chat/threads/${thread.id}`, member)).status).toBe(200);
    await post(thread.id, team.owner, 'after');
    const back = await expectOk('GET', `/api/v1/chat/threads?teamId=${team.id}`, member);
    expect(ids(back as never)).toContain(thread.id);
  });

  it('removes the caller from a group thread', async () => {
    const thread = await newThread(team, { type: 'group', memberIds: [member.id] });
    expect((await call('POST', `/api/v1/chat/threads/${thread.id}/leave`, member)).status).toBe(204);
    expect((await call('GET', `/api/v1/chat/threads/${thread.id}`, member)).status).toBe(404);
    expect((await call('POST', `/api/v1/chat/threads/${thread.id}/leave`, member)).status).toBe(404);
    expect((await expectOk('GET', `/api/v1/chat/threads/${thread.id}`, team.owner)).memberIds).toEqual([
      team.owner.id,
    ]);
  });
});

describe('group members', () => {
  it('are added and removed by the creator or a team admin', async () => {
    const thread = await newThread(team, { type: 'group', by: member });
    const added = await call('POST', `/api/v1/chat/threads/${thread.id}/members`, member, {
      memberIds: [another.id, another.id],
    });
    expect(added.status).toBe(200);
    expect(added.body.memberIds.sort()).toEqual([member.id, another.id].sort());
    const byStranger = await call('POST', `/api/v1/chat/threads/${thread.id}/members`, another, {
      memberIds: [admin.id],
    });
    expect(byStranger.status).toBe(403);
    // A team admin manages it without being a member of it? Only if they see it: they do not.
    expect(
      (await call('POST', `/api/v1/chat/threads/${thread.id}/members`, admin, { memberIds: [admin.id] }))
        .status,
    ).toBe(404);
    await expectOk('POST', `/api/v1/chat/threads/${thread.id}/members`, member, { memberIds: [admin.id] });
    expect(
      (await call('DELETE', `/api/v1/chat/threads/${thread.id}/members/${another.id}`, admin)).status,
    ).toBe(204);
    expect((await call('GET', `/api/v1/chat/threads/${thread.id}`, another)).status).toBe(404);
    expect(
      (await call('DELETE', `/api/v1/chat/threads/${thread.id}/members/${another.id}`, admin)).status,
    ).toBe(404);
    // Anyone removes themselves.
    expect(
      (await call('DELETE', `/api/v1/chat/threads/${thread.id}/members/${admin.id}`, admin)).status,
    ).toBe(204);
  });

  it('must belong to the thread’s teams, and only group threads take them', async () => {
    const thread = await newThread(team, { type: 'group' });
    const stranger = await ctx.newUser();
    const refused = await call('POST', `/api/v1/chat/threads/${thread.id}/members`, team.owner, {
      memberIds: [member.id, stranger.id],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      { path: '/body/memberIds/1', message: 'is not a member of the thread’s teams' },
    ]);
    expect((await expectOk('GET', `/api/v1/chat/threads/${thread.id}`, team.owner)).memberIds).toEqual([
      team.owner.id,
    ]);
    const open = await newThread(team);
    const onTeam = await call('POST', `/api/v1/chat/threads/${open.id}/members`, team.owner, {
      memberIds: [member.id],
    });
    expect(onTeam.status).toBe(400);
    expect(onTeam.body.code).toBe('not_a_group_thread');
    expect(
      (await call('DELETE', `/api/v1/chat/threads/${open.id}/members/${member.id}`, team.owner)).status,
    ).toBe(400);
    expect(
      (await call('POST', `/api/v1/chat/threads/${thread.id}/members`, team.owner, { memberIds: [] })).status,
    ).toBe(400);
    expect(
      (await call('DELETE', `/api/v1/chat/threads/${thread.id}/members/not-a-uuid`, team.owner)).status,
    ).toBe(400);
  });
});
