import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../../test/helpers/account.ts';
import { TestClock, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { linkIn, useMailbox } from '../../../../test/helpers/mailbox.ts';
import { organisationInvitations } from '../../../db/schema/index.ts';
import { sha256 } from '../../../shared/hash.ts';
import { RESENDS_PER_INVITATION } from '../../../shared/invitation-resends.ts';
import { workHelpers } from '../../notifications/notifications.test-support.ts';
import { organisationHelpers, type TestOrganisation } from '../organisations.test-support.ts';

const clock = new TestClock(Date.parse('2031-05-20T09:00:00.000Z'));
const mailbox = useMailbox();
const ctx = useTestContext({ clock, env: () => ({ SMTP_URL: mailbox.url }) });
const { call } = workHelpers(ctx);
const { newOrganisation, inviteToOrganisation } = organisationHelpers(ctx);

type Item = { kind: string; data: Record<string, unknown>; actions: Record<string, { path: string }> };
const inbox = async (user: TestUser) =>
  (await call('GET', '/api/v1/inbox/', user, undefined, 200)).body as {
    items: Item[];
    counts: Record<string, number>;
  };

/** Invites `email` as the organisation's owner; answers the invitation and the token its mail links to. */
async function invitedByMail(organisation: TestOrganisation, email: string, role = 'member') {
  const invitation = await inviteToOrganisation(organisation, { email }, role as 'member');
  await ctx.app.services.jobs.runDue();
  const mail = mailbox.last(email, /invited you/);
  return { invitation, mail, token: linkIn(mail, '/organisation-invitations/accept').token! };
}

describe('organisation invitations by mail', () => {
  it('mails an invitation to an address; the token of the mail lets an unverified sign-up of it join', async () => {
    const owner = await ctx.newUser({ name: 'Ora Owner' });
    const organisation = await newOrganisation(owner, `Label ${ctx.unique()}`);
    const invitee = await ctx.newUser();
    const { invitation, mail, token } = await invitedByMail(organisation, invitee.email, 'admin');
    expect(mail.subject).toBe(`Ora Owner invited you to the organisation "${organisation.name}"`);
    expect(mail.text).toContain('as admin');
    expect(token).toBe(invitation.token);
    const [row] = await ctx.database.db
      .select()
      .from(organisationInvitations)
      .where(eq(organisationInvitations.id, invitation.id));
    expect(row!.tokenHash).toBe(sha256(token));
    const listed = await call(
      'GET',
      `/api/v1/organisations/${organisation.id}/invitations`,
      owner,
      undefined,
      200,
    );
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.items[0].token).toBeUndefined();

    const accepted = await call('POST', `/api/v1/organisation-invitations/${token}/accept`, invitee);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id: organisation.id });
  });

  it('mails nothing for an invitation to a user id, which its user accepts by id from the inbox', async () => {
    const organisation = await newOrganisation();
    const invitee = await ctx.newUser();
    const invitation = await inviteToOrganisation(organisation, { userId: invitee.id });
    await ctx.app.services.jobs.runDue();
    // Only the sign-up's own verification mail went to the address.
    expect(mailbox.to(invitee.email).map((mail) => mail.subject)).toEqual(['Verify your e-mail address']);
    const resend = `/api/v1/organisations/${organisation.id}/invitations/${invitation.id}/resend`;
    expect((await call('POST', resend, organisation.owner)).status).toBe(409);
    const [item] = (await inbox(invitee)).items;
    expect(item!.actions.accept!.path).toBe(`/api/v1/user/organisation-invitations/${invitation.id}/accept`);
    const stranger = await ctx.newUser();
    expect((await call('POST', item!.actions.accept!.path, stranger)).status).toBe(404);
    expect((await call('POST', item!.actions.accept!.path, invitee)).status).toBe(200);
  });

  it('gives an unverified sign-up of the address nothing without the token, until it is verified', async () => {
    const organisation = await newOrganisation();
    const squatter = await ctx.newUser();
    const { invitation } = await invitedByMail(organisation, squatter.email, 'admin');
    const byId = (how: string) =>
      call('POST', `/api/v1/user/organisation-invitations/${invitation.id}/${how}`, squatter);
    expect((await inbox(squatter)).counts).toMatchObject({ organisationInvitations: 0, total: 0 });
    for (const how of ['accept', 'decline']) {
      const refused = await byId(how);
      expect(refused.status, how).toBe(403);
      expect(refused.body.code).toBe('email_unverified');
    }

    await markEmailVerified(ctx, squatter);
    const [item] = (await inbox(squatter)).items;
    expect(item).toMatchObject({ kind: 'organisation_invitation', data: { invitationId: invitation.id } });
    const accepted = await call('POST', item!.actions.accept!.path, squatter);
    expect(accepted.status).toBe(200);
    expect((await byId('decline')).status).toBe(409);
  });

  it('resends with a new token (the old one 404) for its managers only, then 429', async () => {
    const organisation = await newOrganisation();
    const outsider = await newOrganisation();
    const invitee = await ctx.newUser();
    const { invitation, token } = await invitedByMail(organisation, invitee.email);
    const url = (id: number) => `/api/v1/organisations/${id}/invitations/${invitation.id}/resend`;

    expect((await call('POST', url(outsider.id), outsider.owner)).status).toBe(404);
    expect((await call('POST', url(organisation.id), outsider.owner)).status).toBe(404);
    const team = await ctx.newTeam(organisation.owner);
    const key = await ctx.newApiKey(team);
    for (const path of [
      url(organisation.id),
      `/api/v1/user/organisation-invitations/${invitation.id}/accept`,
    ]) {
      const byKey = await ctx.request({ method: 'POST', url: path, token: key });
      expect(byKey.statusCode, path).toBe(403);
      expect(byKey.json().code).toBe('session_required');
    }

    const resent = await call('POST', url(organisation.id), organisation.owner);
    expect(resent.status).toBe(200);
    expect(resent.body.token).not.toBe(token);
    await ctx.app.services.jobs.runDue();
    const fresh = linkIn(
      mailbox.last(invitee.email, /invited you/),
      '/organisation-invitations/accept',
    ).token;
    expect(fresh).toBe(resent.body.token);
    expect((await call('POST', `/api/v1/organisation-invitations/${token}/accept`, invitee)).status).toBe(
      404,
    );

    for (let i = 1; i < RESENDS_PER_INVITATION; i++)
      expect((await call('POST', url(organisation.id), organisation.owner)).status).toBe(200);
    const limited = await ctx.request({
      method: 'POST',
      url: url(organisation.id),
      token: organisation.owner.token,
    });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
