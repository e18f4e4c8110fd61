import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../../test/helpers/account.ts';
import { type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { organisationInvitations, organisationMembers } from '../../../db/schema/index.ts';
import { organisationHelpers, type TestOrganisation } from '../organisations.test-support.ts';

const ctx = useTestContext();
const { newOrganisation, inviteToOrganisation, addOrganisationMember } = organisationHelpers(ctx);

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, user: TestUser, payload?: object) =>
  ctx.request({ method, url, token: user.token, ...(payload ? { payload } : {}) });
const orgUrl = (org: TestOrganisation, suffix: string) => `/api/v1/organisations/${org.id}${suffix}`;
const answer = (token: string, how: 'accept' | 'decline', user: TestUser) =>
  call('POST', `/api/v1/organisation-invitations/${token}/${how}`, user);
const memberIds = async (org: TestOrganisation) =>
  (
    await ctx.database.db
      .select({ userId: organisationMembers.userId })
      .from(organisationMembers)
      .where(eq(organisationMembers.organisationId, org.id))
  )
    .map((m) => m.userId)
    .sort();
const INVITATION_KEYS = [
  'createdAt',
  'email',
  'expiresAt',
  'id',
  'invitedBy',
  'organisationId',
  'role',
  'token',
  'userId',
].sort();

describe('organisation invitations', () => {
  it("enrols nobody: another team's user can neither add a stranger to their organisation nor learn who they are", async () => {
    const victim = await ctx.newUser({ name: 'Victim' });
    const outsiderOrg = await newOrganisation();
    const outsider = outsiderOrg.owner;
    const added = await call('POST', orgUrl(outsiderOrg, '/members'), outsider, { userId: victim.id });
    expect(added.statusCode).toBe(201);
    expect(Object.keys(added.json()).sort()).toEqual(INVITATION_KEYS);
    expect(added.body).not.toContain(victim.email);
    expect(added.body).not.toContain('Victim');
    expect(await memberIds(outsiderOrg)).toEqual([outsider.id]);
    const promoted = await call('PATCH', orgUrl(outsiderOrg, `/members/${victim.id}`), outsider, {
      role: 'owner',
    });
    expect(promoted.statusCode).toBe(404);
    expect((await call('DELETE', orgUrl(outsiderOrg, `/members/${victim.id}`), outsider)).statusCode).toBe(
      404,
    );
    const listed = await call('GET', orgUrl(outsiderOrg, '/members'), outsider);
    expect(listed.body).not.toContain(victim.email);
  });

  it('answers alike for known and unknown ids and addresses', async () => {
    const organisation = await newOrganisation();
    const known = await ctx.newUser({ name: 'Known' });
    const shapes = [];
    for (const payload of [
      { userId: known.id },
      { userId: crypto.randomUUID() },
      { email: known.email },
      { email: `nobody-${ctx.unique()}@example.test` },
    ]) {
      for (const path of ['/members', '/invitations']) {
        const res = await call('POST', orgUrl(organisation, path), organisation.owner, payload);
        expect(res.statusCode, `${path} ${JSON.stringify(payload)}`).toBe(path === '/members' ? 201 : 409);
        if (path === '/members') {
          const body = res.json();
          expect(body).toMatchObject({ ...payload, role: 'member', organisationId: organisation.id });
          expect(body.userId === null || body.email === null).toBe(true);
          shapes.push(Object.keys(body).sort());
        } else expect(res.json().code).toBe('conflict');
      }
    }
    expect(shapes).toEqual(Array(4).fill(INVITATION_KEYS));
  });

  it('lets the invited user accept once; the new member is listed only then', async () => {
    const organisation = await newOrganisation();
    const [invitee, other] = [await ctx.newUser(), await ctx.newUser()];
    const invitation = await inviteToOrganisation(organisation, { userId: invitee.id }, 'admin');
    expect(await memberIds(organisation)).toEqual([organisation.owner.id]);
    expect((await answer(invitation.token, 'accept', other)).statusCode).toBe(403);
    expect((await answer('A'.repeat(32), 'accept', invitee)).statusCode).toBe(404);
    expect((await answer('short', 'accept', invitee)).statusCode).toBe(400);
    const accepted = await answer(invitation.token, 'accept', invitee);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ id: organisation.id, role: 'admin' });
    expect((await answer(invitation.token, 'accept', invitee)).statusCode).toBe(409);
    expect((await answer(invitation.token, 'decline', invitee)).statusCode).toBe(409);
    const members = await call('GET', orgUrl(organisation, '/members'), invitee);
    expect(members.json().items).toEqual([
      expect.objectContaining({ userId: organisation.owner.id, role: 'owner' }),
      expect.objectContaining({ userId: invitee.id, email: invitee.email, role: 'admin' }),
    ]);
    // A member already: a new invitation is 409, by id or address.
    for (const payload of [{ userId: invitee.id }, { email: invitee.email.toUpperCase() }])
      expect((await call('POST', orgUrl(organisation, '/invitations'), invitee, payload)).statusCode).toBe(
        409,
      );
  });

  it('takes an invitation by e-mail with its token, from the account of that address only', async () => {
    const organisation = await newOrganisation();
    const [invitee, other] = [await ctx.newUser(), await ctx.newUser()];
    const invitation = await inviteToOrganisation(organisation, { email: invitee.email.toUpperCase() });
    expect(invitation.email).toBe(invitee.email);
    expect((await answer(invitation.token, 'accept', other)).statusCode).toBe(403);
    // Not verified, the account still holds the token it was sent: that is the proof.
    expect((await answer(invitation.token, 'accept', invitee)).statusCode).toBe(200);
    expect(await memberIds(organisation)).toEqual([organisation.owner.id, invitee.id].sort());
  });

  it('is managed by owners and admins: listed without tokens, withdrawn, declined; only owners invite owners', async () => {
    const organisation = await newOrganisation();
    const admin = await addOrganisationMember(organisation, 'admin');
    const member = await addOrganisationMember(organisation, 'member');
    const [a, b] = [await ctx.newUser(), await ctx.newUser()];
    const invite = (user: TestUser, payload: object) =>
      call('POST', orgUrl(organisation, '/invitations'), user, payload);

    expect((await invite(admin, { userId: a.id, role: 'owner' })).statusCode).toBe(403);
    expect((await invite(member, { userId: a.id })).statusCode).toBe(403);
    for (const payload of [{}, { userId: a.id, email: a.email }, { userId: 'x' }, { email: 'nope' }]) {
      const res = await invite(admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const toA = (await invite(admin, { userId: a.id })).json();
    const toB = (await invite(organisation.owner, { email: b.email, role: 'owner' })).json();
    expect((await invite(admin, { userId: a.id })).statusCode).toBe(409);

    expect((await call('GET', orgUrl(organisation, '/invitations'), member)).statusCode).toBe(403);
    const page = await call('GET', orgUrl(organisation, '/invitations?limit=1'), admin);
    // Tokens are kept hashed: only the creating answer shows one.
    const { token: tokenB, ...listedB } = toB;
    const { token: tokenA, ...listedA } = toA;
    expect([tokenA, tokenB]).toEqual([expect.any(String), expect.any(String)]);
    expect(page.json().items).toEqual([listedB]);
    const next = await call(
      'GET',
      orgUrl(organisation, `/invitations?limit=1&cursor=${page.json().nextCursor}`),
      admin,
    );
    expect(next.json()).toEqual({ items: [listedA], nextCursor: null });

    expect((await call('DELETE', orgUrl(organisation, `/invitations/${toA.id}`), member)).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', orgUrl(organisation, `/invitations/${toA.id}`), admin)).statusCode).toBe(
      204,
    );
    expect((await call('DELETE', orgUrl(organisation, `/invitations/${toA.id}`), admin)).statusCode).toBe(
      404,
    );
    expect((await answer(toA.token, 'accept', a)).statusCode).toBe(404);

    const declined = await answer(toB.token, 'decline', b);
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toMatchObject({ id: toB.id, organisationId: organisation.id, role: 'owner' });
    expect((await answer(toB.token, 'accept', b)).statusCode).toBe(409);
    // A declined invitation frees the address for a new one.
    expect((await invite(organisation.owner, { email: b.email })).statusCode).toBe(201);
    expect(await memberIds(organisation)).toEqual([organisation.owner.id, admin.id, member.id].sort());
  });

  it('refuses an expired invitation', async () => {
    const organisation = await newOrganisation();
    const invitee = await ctx.newUser();
    const invitation = await inviteToOrganisation(organisation, { userId: invitee.id });
    await ctx.database.db
      .update(organisationInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(organisationInvitations.id, invitation.id));
    const res = await answer(invitation.token, 'accept', invitee);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/expired/);
    // The expired one no longer blocks a new invitation.
    expect((await inviteToOrganisation(organisation, { userId: invitee.id })).token).not.toBe(
      invitation.token,
    );
  });

  it('gives a former member nothing: no invitations of theirs, nor one they sent before leaving', async () => {
    const organisation = await newOrganisation();
    const admin = await addOrganisationMember(organisation, 'admin');
    const accomplice = await ctx.newUser();
    const sent = await inviteToOrganisation(organisation, { userId: accomplice.id }, 'admin', admin.token);
    await ctx.request({
      method: 'DELETE',
      url: orgUrl(organisation, `/members/${admin.id}`),
      token: organisation.owner.token,
    });
    const stranger = await ctx.newUser();
    expect(
      (await call('POST', orgUrl(organisation, '/members'), admin, { userId: stranger.id })).statusCode,
    ).toBe(404);
    expect((await call('GET', orgUrl(organisation, '/invitations'), admin)).statusCode).toBe(404);
    expect(
      (await call('PATCH', orgUrl(organisation, `/members/${stranger.id}`), admin, { role: 'owner' }))
        .statusCode,
    ).toBe(404);
    const res = await answer(sent.token, 'accept', accomplice);
    expect(res.statusCode).toBe(409);
    expect(await memberIds(organisation)).toEqual([organisation.owner.id]);
  });

  it('lets an owner invitation through only while its sender is an owner', async () => {
    const organisation = await newOrganisation();
    const second = await addOrganisationMember(organisation, 'owner');
    const invitee = await ctx.newUser();
    const sent = await inviteToOrganisation(organisation, { userId: invitee.id }, 'owner', second.token);
    const demoted = await call('PATCH', orgUrl(organisation, `/members/${second.id}`), organisation.owner, {
      role: 'admin',
    });
    expect(demoted.statusCode).toBe(200);
    expect((await answer(sent.token, 'accept', invitee)).statusCode).toBe(409);
  });

  it('shows an invitation in the inbox of the user invited by id, and of a verified address only', async () => {
    const organisation = await newOrganisation(undefined, 'Label Inc');
    const [byId, byEmail] = [await ctx.newUser(), await ctx.newUser()];
    await inviteToOrganisation(organisation, { userId: byId.id }, 'admin');
    await inviteToOrganisation(organisation, { email: byEmail.email });
    const inbox = async (user: TestUser) => (await call('GET', '/api/v1/inbox/', user)).json();

    const [item] = (await inbox(byId)).items;
    expect(item).toMatchObject({
      kind: 'organisation_invitation',
      teamId: null,
      title: 'Label Inc',
      data: { organisationId: organisation.id, role: 'admin', invitedBy: organisation.owner.id },
    });
    expect((await inbox(byId)).counts).toMatchObject({ organisationInvitations: 1, total: 1 });
    // Sent to an address an account has not shown to be its own: not offered.
    expect((await inbox(byEmail)).items).toEqual([]);
    await markEmailVerified(ctx, byEmail);
    expect((await inbox(byEmail)).items.map((i: { kind: string }) => i.kind)).toEqual([
      'organisation_invitation',
    ]);

    const accepted = await call(item.actions.accept.method, item.actions.accept.path, byId);
    expect(accepted.statusCode).toBe(200);
    expect((await inbox(byId)).items).toEqual([]);
  });
});
