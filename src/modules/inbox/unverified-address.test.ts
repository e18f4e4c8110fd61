import { describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../test/helpers/account.ts';
import { TestClock, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { workHelpers } from '../notifications/notifications.test-support.ts';
import { sessionHelpers } from '../sessions/sessions.test-support.ts';

const clock = new TestClock(Date.parse('2031-05-20T09:00:00.000Z'));
const ctx = useTestContext({ clock });
const { call, inviteToSession } = workHelpers(ctx);
const { newSession } = sessionHelpers(ctx);

const inboxOf = async (user: TestUser) =>
  (await call('GET', '/api/v1/inbox/', user, undefined, 200)).body as {
    items: { kind: string; actions: Record<string, { method: 'POST'; path: string }> }[];
    counts: Record<string, number>;
  };

describe('an address not verified claims nothing sent to it', () => {
  it('keeps a team invite to the address out of the inbox of a password sign-up, token and all', async () => {
    const team = await ctx.newTeam();
    const squatter = await ctx.newUser();
    await call(
      'POST',
      `/api/v1/teams/${team.id}/invites`,
      team.owner,
      { email: squatter.email, role: 'admin' },
      201,
    );
    const inbox = await inboxOf(squatter);
    expect(inbox.items).toEqual([]);
    expect(inbox.counts).toMatchObject({ invites: 0, total: 0 });
    expect((await call('GET', `/api/v1/teams/${team.id}/members`, squatter)).status).toBe(404);

    await markEmailVerified(ctx, squatter);
    const [item] = (await inboxOf(squatter)).items;
    expect(item?.kind).toBe('team_invite');
    expect((await call(item!.actions.accept!.method, item!.actions.accept!.path, squatter)).status).toBe(200);
  });

  it('refuses a password sign-up the session invitation sent to its address (403 email_unverified)', async () => {
    const team = await ctx.newTeam();
    const squatter = await ctx.newUser();
    const session = await newSession(team, { startsAt: '2031-05-21T10:00:00.000Z' });
    const invited = await inviteToSession(team, session.id, squatter.email);
    const respond = () =>
      call('POST', `/api/v1/sessions/${session.id}/respond`, squatter, {
        accept: true,
        participantId: invited.id,
      });

    expect((await inboxOf(squatter)).counts).toMatchObject({ sessions: 0, total: 0 });
    const refused = await respond();
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'email_unverified' });
    const read = () => call('GET', `/api/v1/sessions/${session.id}?teamId=${team.id}`, squatter);
    expect((await read()).status).toBe(404);
    expect(
      (await call('GET', `/api/v1/sessions/${session.id}/participants?teamId=${team.id}`, squatter)).status,
    ).toBe(404);
    const still = await call(
      'GET',
      `/api/v1/sessions/${session.id}/participants?teamId=${team.id}`,
      team.owner,
    );
    expect(still.body.items).toEqual([
      expect.objectContaining({ id: invited.id, userId: null, status: 'invited' }),
    ]);

    await markEmailVerified(ctx, squatter);
    expect((await inboxOf(squatter)).counts).toMatchObject({ sessions: 1 });
    const accepted = await respond();
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ userId: squatter.id, status: 'accepted' });
    expect((await read()).status).toBe(200);
  });

  it('still lets the holder of a team invite token accept it: the mailed secret is the proof', async () => {
    const team = await ctx.newTeam();
    const invitee = await ctx.newUser();
    const invite = await call(
      'POST',
      `/api/v1/teams/${team.id}/invites`,
      team.owner,
      { email: invitee.email },
      201,
    );
    const token = (invite.body as { token: string }).token;
    expect((await call('POST', `/api/v1/invites/${token}/accept`, invitee)).status).toBe(200);
  });
});
