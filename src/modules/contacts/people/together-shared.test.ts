import { beforeAll, describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../../test/helpers/account.ts';
import { type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { chatHelpers } from '../../chat/chat.test-support.ts';
import { sessionHelpers } from '../../sessions/sessions.test-support.ts';

const ctx = useTestContext();
const { newThread, expectOk } = chatHelpers(ctx);
const { newSession } = sessionHelpers(ctx);

let caller: TestUser;
let person: TestUser;
const sessionIds: Record<string, number> = {};
const threadIds: Record<string, string> = {};

beforeAll(async () => {
  const shared = await ctx.newTeam();
  caller = shared.owner;
  person = await ctx.addMember(shared);
  const mine = await ctx.newTeam(caller);
  const outsider = await ctx.addMember(mine);
  const theirs = await ctx.newTeam();
  // Invited by address below: only a verified address makes such an invitation theirs.
  for (const user of [caller, person, outsider]) await markEmailVerified(ctx, user);

  const session = async (name: string, team: typeof shared, day: number, emails: string[] = []) => {
    const startsAt = `2031-06-${String(day).padStart(2, '0')}T10:00:00.000Z`;
    const id = (await newSession(team, { title: name, startsAt })).id;
    for (const email of emails)
      await expectOk('POST', `/api/v1/sessions/${id}/participants`, team.owner, { email });
    sessionIds[name] = id;
  };
  await session('sharedTeam', shared, 1);
  await session('personInvited', mine, 3, [person.email.toUpperCase()]);
  await session('onlyMine', mine, 4, [outsider.email]);
  await session('bothInvited', theirs, 2, [caller.email, person.email]);
  await session('callerInvited', theirs, 5, [caller.email]);

  const thread = async (name: string, created: Promise<{ id: string }>) => {
    threadIds[name] = (await created).id;
  };
  await thread('sharedTeam', newThread(shared));
  await thread('mineTeam', newThread(mine));
  await thread('group', newThread(shared, { type: 'group', memberIds: [person.id] }));
  await thread('groupWithout', newThread(mine, { type: 'group', memberIds: [outsider.id] }));
  await thread('removed', newThread(shared, { type: 'group', memberIds: [person.id] }));
  await expectOk('DELETE', `/api/v1/chat/threads/${threadIds.removed}/members/${person.id}`, caller);
  await thread('direct', newThread(shared, { type: 'direct', memberIds: [person.id] }));
});

const together = (about: TestUser, token: string) =>
  ctx.request({ method: 'GET', url: `/api/v1/contacts/together?userId=${about.id}`, token });

describe('together: sessions and threads', () => {
  it('lists the sessions both may see, latest start first', async () => {
    const res = await together(person, caller.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sessions.map((s: { title: string }) => s.title)).toEqual([
      'personInvited',
      'bothInvited',
      'sharedTeam',
    ]);
    expect(res.json().sessions[0]).toEqual({
      id: sessionIds.personInvited,
      teamId: expect.any(Number),
      title: 'personInvited',
      startsAt: '2031-06-03T10:00:00.000Z',
      endsAt: '2031-06-03T12:00:00.000Z',
      status: 'scheduled',
    });
    expect((await together(caller, person.token)).json().sessions).toEqual(res.json().sessions);
  });

  it('lists the threads both see, newest activity first', async () => {
    const res = await together(person, caller.token);
    const threads = res.json().threads as { id: string; type: string; activityAt: string }[];
    expect(threads.map((t) => t.id)).toEqual([threadIds.direct, threadIds.group, threadIds.sharedTeam]);
    expect(threads.map((t) => t.type)).toEqual(['direct', 'group', 'team']);
    expect((await together(caller, person.token)).json().threads).toEqual(threads);
  });
});
