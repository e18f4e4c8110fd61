import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../test/helpers/account.ts';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { linkIn, useMailbox } from '../../../test/helpers/mailbox.ts';
import { invites } from '../../db/schema/index.ts';
import { sha256 } from '../../shared/hash.ts';
import { RESENDS_PER_INVITATION } from '../../shared/invitation-resends.ts';
import { workHelpers } from '../notifications/notifications.test-support.ts';

const clock = new TestClock(Date.parse('2031-05-20T09:00:00.000Z'));
const mailbox = useMailbox();
const ctx = useTestContext({
  clock,
  env: () => ({ SMTP_URL: mailbox.url, APP_URL: 'https://app.studio.test' }),
});
const { call } = workHelpers(ctx);

type Item = { kind: string; data: Record<string, unknown>; actions: Record<string, { path: string }> };
const inbox = async (user: TestUser) =>
  (await call('GET', '/api/v1/inbox/', user, undefined, 200)).body as {
    items: Item[];
    counts: Record<string, number>;
  };

async function invite(team: TestTeam, email: string, role = 'member') {
  const res = await call('POST', `/api/v1/teams/${team.id}/invites`, team.owner, { email, role }, 201);
  return res.body as { id: number; token: string; email: string; role: string; expiresAt: string };
}

/** Sends what is queued and answers the last invitation mail to `address` and the token of its link. */
async function mailTo(address: string) {
  await ctx.app.services.jobs.runDue();
  const mail = mailbox.last(address, /invited you/);
  return { mail, token: linkIn(mail, '/invites/accept').token };
}

describe('team invites by mail', () => {
  it('mails the invite with its link; the token of the mail lets even an unverified sign-up of that address join', async () => {
    const owner = await ctx.newUser({ name: 'Olga Owner' });
    const team = await ctx.newTeam(owner, `Night Shift ${ctx.unique()}`);
    const invitee = await ctx.newUser();
    const created = await invite(team, invitee.email, 'admin');

    const { mail, token } = await mailTo(invitee.email);
    expect(mail.subject).toBe(`Olga Owner invited you to the team "${team.name}"`);
    expect(mail.text).toContain('as admin');
    expect(mail.text).toContain('2031-05-27 09:00 UTC');
    expect(mail.html).toContain('Accept the invitation');
    expect(linkIn(mail, '/invites/accept').url.origin).toBe('https://app.studio.test');
    expect(token).toBe(created.token);

    // The token is kept only as its hash, and lists never carry it.
    const [row] = await ctx.database.db.select().from(invites).where(eq(invites.id, created.id));
    expect(row!.tokenHash).toBe(sha256(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token);
    const listed = await call('GET', `/api/v1/teams/${team.id}/invites`, team.owner, undefined, 200);
    expect(listed.body.items).toEqual([expect.not.objectContaining({ token: expect.anything() })]);
    expect(listed.body.items[0]).toMatchObject({ id: created.id, role: 'admin' });

    const accepted = await call('POST', `/api/v1/invites/${token}/accept`, invitee);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id: team.id, role: 'admin' });
    expect((await call('POST', `/api/v1/invites/${token}/accept`, invitee)).status).toBe(409);
  });

  it('gives an unverified sign-up nothing by the address alone, as admin invite too, until it is verified', async () => {
    const team = await ctx.newTeam();
    const squatter = await ctx.newUser();
    const created = await invite(team, squatter.email, 'admin');
    const byId = (answer: string) => call('POST', `/api/v1/user/invites/${created.id}/${answer}`, squatter);

    expect((await inbox(squatter)).counts).toMatchObject({ invites: 0, total: 0 });
    for (const answer of ['accept', 'decline']) {
      const refused = await byId(answer);
      expect(refused.status, answer).toBe(403);
      expect(refused.body.code).toBe('email_unverified');
    }
    expect((await call('GET', `/api/v1/teams/${team.id}/members`, squatter)).status).toBe(404);

    await markEmailVerified(ctx, squatter);
    const [item] = (await inbox(squatter)).items;
    expect(item).toMatchObject({ kind: 'team_invite', data: { inviteId: created.id, role: 'admin' } });
    expect(JSON.stringify(item)).not.toContain(created.token);
    expect(item!.actions.accept!.path).toBe(`/api/v1/user/invites/${created.id}/accept`);
    const accepted = await call('POST', item!.actions.accept!.path, squatter);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id: team.id, role: 'admin' });
    expect((await byId('accept')).status).toBe(409);
  });

  it('answers 404 by id for an invite to another address, even a verified one', async () => {
    const team = await ctx.newTeam();
    const [guest, other] = [await ctx.newUser(), await ctx.newUser()];
    await markEmailVerified(ctx, other);
    const created = await invite(team, guest.email);
    for (const answer of ['accept', 'decline'])
      expect((await call('POST', `/api/v1/user/invites/${created.id}/${answer}`, other)).status).toBe(404);
    expect((await call('POST', '/api/v1/user/invites/0/accept', other)).status).toBe(400);
  });

  it('resends with a new token: the old link stops working; 3 an hour, then 429 with Retry-After', async () => {
    const team = await ctx.newTeam();
    const invitee = await ctx.newUser();
    const created = await invite(team, invitee.email);
    const resend = () => call('POST', `/api/v1/teams/${team.id}/invites/${created.id}/resend`, team.owner);

    clock.advance(60 * 1000);
    const first = await resend();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: created.id, email: invitee.email, role: 'member' });
    expect(first.body.token).not.toBe(created.token);
    // A resend renews the expiry.
    expect(Date.parse(first.body.expiresAt) - Date.parse(created.expiresAt)).toBe(60 * 1000);
    const { token } = await mailTo(invitee.email);
    expect(token).toBe(first.body.token);
    expect(mailbox.to(invitee.email).filter((mail) => / invited you /.test(mail.subject))).toHaveLength(2);

    for (let i = 1; i < RESENDS_PER_INVITATION; i++) expect((await resend()).status).toBe(200);
    const limited = await ctx.request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/invites/${created.id}/resend`,
      token: team.owner.token,
    });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    const latest = (await call('GET', `/api/v1/teams/${team.id}/invites`, team.owner)).body.items[0];
    expect(latest.token).toBeUndefined();
    const [row] = await ctx.database.db.select().from(invites).where(eq(invites.id, created.id));
    for (const old of [created.token, first.body.token])
      expect((await call('POST', `/api/v1/invites/${old}/accept`, invitee)).status).toBe(404);
    expect(row!.tokenHash).not.toBe(sha256(first.body.token));
  });

  it('lets only managers of the team resend, answered invites not at all, and no API key', async () => {
    const team = await ctx.newTeam();
    const other = await ctx.newTeam();
    const member = await ctx.addMember(team, 'member');
    const invitee = await ctx.newUser();
    const created = await invite(team, invitee.email);
    const url = (teamId: number) => `/api/v1/teams/${teamId}/invites/${created.id}/resend`;

    expect((await call('POST', url(other.id), other.owner)).status).toBe(404);
    expect((await call('POST', url(team.id), other.owner)).status).toBe(404);
    expect((await call('POST', url(team.id), member)).status).toBe(403);
    const key = await ctx.newApiKey(team);
    const byKey = await ctx.request({ method: 'POST', url: url(team.id), token: key });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().code).toBe('session_required');
    for (const path of [
      `/api/v1/user/invites/${created.id}/accept`,
      `/api/v1/invites/${created.token}/accept`,
    ]) {
      const res = await ctx.request({ method: 'POST', url: path, token: key });
      expect(res.json().code, path).toBe('session_required');
    }

    expect((await call('POST', `/api/v1/invites/${created.token}/decline`, invitee)).status).toBe(200);
    expect((await call('POST', url(team.id), team.owner)).status).toBe(409);
    expect((await call('POST', `/api/v1/teams/${team.id}/invites/999999/resend`, team.owner)).status).toBe(
      404,
    );
  });

  it('hashes tokens in SQL exactly as the service does (the migration turned stored tokens into hashes)', async () => {
    for (const token of ['abc', 'Zx_9-QpLm0aBcDeFgHiJkLmNoPqRsTuV', 'naïve-ß-😀']) {
      const [row] = await ctx.database.db
        .select({ hash: sql<string>`encode(sha256(convert_to(${token}::text, 'UTF8')), 'hex')` })
        .from(sql`(select 1) as one`);
      expect(row!.hash, token).toBe(sha256(token));
    }
  });
});
