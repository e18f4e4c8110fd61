import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../../test/helpers/account.ts';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { linkIn, useMailbox } from '../../../../test/helpers/mailbox.ts';
import { sessionParticipants } from '../../../db/schema/index.ts';
import { sha256 } from '../../../shared/hash.ts';
import { RESENDS_PER_INVITATION } from '../../../shared/invitation-resends.ts';
import { workHelpers } from '../../notifications/notifications.test-support.ts';
import { sessionHelpers } from '../sessions.test-support.ts';

const clock = new TestClock(Date.parse('2031-05-20T09:00:00.000Z'));
const mailbox = useMailbox();
const ctx = useTestContext({ clock, env: () => ({ SMTP_URL: mailbox.url }) });
const { call } = workHelpers(ctx);
const { newSession } = sessionHelpers(ctx);

const inboxCounts = async (user: TestUser) =>
  (await call('GET', '/api/v1/inbox/', user, undefined, 200)).body.counts as Record<string, number>;

/** A session of the team, its owner named, and an e-mail invitation to `email`: the answer and the mailed token. */
async function invited(team: TestTeam, email: string) {
  const session = await newSession(team, { title: 'Vocals', startsAt: '2031-05-21T10:00:00.000Z' });
  const res = await call('POST', `/api/v1/sessions/${session.id}/participants`, team.owner, { email }, 201);
  await ctx.app.services.jobs.runDue();
  const mail = mailbox.last(email, /invited you/);
  return { session, participant: res.body, mail, token: linkIn(mail, '/session-invitations/accept').token! };
}

const answer = (token: string, what: 'accept' | 'decline', user: TestUser) =>
  call('POST', `/api/v1/session-invitations/${token}/${what}`, user);

describe('session invitations by mail', () => {
  it('mails an e-mail invitation with its link; its token lets an unverified account accept, once', async () => {
    const owner = await ctx.newUser({ name: 'Sam Studio' });
    const team = await ctx.newTeam(owner, `Tape Room ${ctx.unique()}`);
    const guest = await ctx.newUser();
    const { session, participant, mail, token } = await invited(team, guest.email);
    expect(mail.subject).toBe(
      `Sam Studio invited you to the studio session "Vocals" of ${team.name} on 2031-05-21 10:00 UTC`,
    );
    expect(participant.token).toBe(token);
    const [row] = await ctx.database.db
      .select()
      .from(sessionParticipants)
      .where(eq(sessionParticipants.id, participant.id));
    expect(row!.tokenHash).toBe(sha256(token));
    const listed = await call(
      'GET',
      `/api/v1/sessions/${session.id}/participants?teamId=${team.id}`,
      team.owner,
    );
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const accepted = await answer(token, 'accept', guest);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id: participant.id, userId: guest.id, status: 'accepted' });
    expect((await call('GET', `/api/v1/sessions/${session.id}?teamId=${team.id}`, guest)).status).toBe(200);
    // Single use: the token is spent; the answer may still change through respond (the invitation is theirs).
    expect((await answer(token, 'decline', guest)).status).toBe(404);
    const changed = await call('POST', `/api/v1/sessions/${session.id}/respond`, guest, {
      accept: false,
      participantId: participant.id,
    });
    expect(changed.body).toMatchObject({ status: 'declined' });
  });

  it('refuses respond by participantId to an unverified address (403 email_unverified) and keeps it out of the inbox', async () => {
    const team = await ctx.newTeam();
    const squatter = await ctx.newUser();
    const { session, participant } = await invited(team, squatter.email);
    const respond = () =>
      call('POST', `/api/v1/sessions/${session.id}/respond`, squatter, {
        accept: true,
        participantId: participant.id,
      });
    expect(await inboxCounts(squatter)).toMatchObject({ sessions: 0, total: 0 });
    const refused = await respond();
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('email_unverified');

    await markEmailVerified(ctx, squatter);
    expect(await inboxCounts(squatter)).toMatchObject({ sessions: 1 });
    expect((await respond()).body).toMatchObject({ userId: squatter.id, status: 'accepted' });
  });

  it('declines with the token, and answers 404 for an unknown token and 409 for a second invitation of the caller', async () => {
    const team = await ctx.newTeam();
    const guest = await ctx.newUser();
    const { participant, token } = await invited(team, guest.email);
    const declined = await answer(token, 'decline', guest);
    expect(declined.body).toMatchObject({ id: participant.id, userId: guest.id, status: 'declined' });
    expect((await answer('A'.repeat(32), 'accept', guest)).status).toBe(404);
    expect((await answer('short', 'accept', guest)).status).toBe(400);

    // Already invited as a member of the team, another e-mail invitation to the same session is not theirs too.
    const member = await ctx.addMember(team, 'member');
    const session = await newSession(team);
    await call('POST', `/api/v1/sessions/${session.id}/participants`, team.owner, { userId: member.id }, 201);
    const other = await call(
      'POST',
      `/api/v1/sessions/${session.id}/participants`,
      team.owner,
      { email: `alias-${ctx.unique()}@example.test` },
      201,
    );
    expect((await answer(other.body.token, 'accept', member)).status).toBe(409);
  });

  it('resends with a new token (the old one 404), to members of the team only, then 429', async () => {
    const team = await ctx.newTeam();
    const outsider = await ctx.newTeam();
    const guest = await ctx.newUser();
    const { session, participant, token } = await invited(team, guest.email);
    const url = `/api/v1/sessions/${session.id}/participants/${participant.id}/resend`;

    expect((await call('POST', url, outsider.owner, {})).status).toBe(404);
    expect((await call('POST', url, team.owner, { teamId: outsider.id })).status).toBe(404);
    const key = await ctx.newApiKey(team);
    for (const path of [url, `/api/v1/session-invitations/${token}/accept`]) {
      const byKey = await ctx.request({ method: 'POST', url: path, token: key, payload: {} });
      expect(byKey.statusCode, path).toBe(403);
      expect(byKey.json().code).toBe('session_required');
    }

    const resent = await call('POST', url, team.owner);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id: participant.id, status: 'invited' });
    await ctx.app.services.jobs.runDue();
    const fresh = linkIn(mailbox.last(guest.email, /invited you/), '/session-invitations/accept').token;
    expect(fresh).toBe(resent.body.token);
    expect(fresh).not.toBe(token);
    expect((await answer(token, 'accept', guest)).status).toBe(404);

    for (let i = 1; i < RESENDS_PER_INVITATION; i++)
      expect((await call('POST', url, team.owner)).status).toBe(200);
    const limited = await ctx.request({ method: 'POST', url, token: team.owner.token });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // Answered, or not an e-mail invitation: nothing to mail again.
    const member = await ctx.addMember(team, 'member');
    const byUser = await call(
      'POST',
      `/api/v1/sessions/${session.id}/participants`,
      team.owner,
      { userId: member.id },
      201,
    );
    expect(byUser.body.token).toBeUndefined();
    const resendByUser = `/api/v1/sessions/${session.id}/participants/${byUser.body.id}/resend`;
    expect((await call('POST', resendByUser, team.owner)).status).toBe(409);
  });
});
