import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { organisationMembers } from '../../db/schema/index.ts';
import { organisationHelpers, type TestOrganisation } from './organisations.test-support.ts';

const ctx = useTestContext();
const { newOrganisation, organisationWithTeam, addOrganisationMember, logOf } = organisationHelpers(ctx);

const membersUrl = (org: TestOrganisation, userId?: string) =>
  `/api/v1/organisations/${org.id}/members${userId ? `/${userId}` : ''}`;

const rolesOf = async (org: TestOrganisation) =>
  Object.fromEntries(
    (
      await ctx.database.db
        .select({ userId: organisationMembers.userId, role: organisationMembers.role })
        .from(organisationMembers)
        .where(eq(organisationMembers.organisationId, org.id))
    ).map((m) => [m.userId, m.role]),
  );

describe('organisation members', () => {
  it('lists members in join order, to any reader (team members too), page by page', async () => {
    const { organisation, team } = await organisationWithTeam();
    const admin = await addOrganisationMember(organisation, 'admin');
    const teamMember = await ctx.addMember(team, 'member');
    const first = await ctx.request({
      method: 'GET',
      url: `${membersUrl(organisation)}?limit=1`,
      token: teamMember.token,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().items).toEqual([
      {
        userId: organisation.owner.id,
        name: null,
        email: organisation.owner.email,
        role: 'owner',
        joinedAt: expect.any(String),
      },
    ]);
    const next = await ctx.request({
      method: 'GET',
      url: `${membersUrl(organisation)}?limit=1&cursor=${first.json().nextCursor}`,
      token: teamMember.token,
    });
    expect(next.json()).toEqual({
      items: [expect.objectContaining({ userId: admin.id, role: 'admin' })],
      nextCursor: null,
    });
  });

  it('records member changes in the activity of every team of the organisation', async () => {
    const { organisation, team } = await organisationWithTeam();
    const user = await addOrganisationMember(organisation);
    await ctx.request({
      method: 'PATCH',
      url: membersUrl(organisation, user.id),
      token: organisation.owner.token,
      payload: { role: 'admin' },
    });
    await ctx.request({ method: 'DELETE', url: membersUrl(organisation, user.id), token: user.token });
    const events = (await logOf({ organisationId: organisation.id })).filter(
      (e) => e.subjectType === 'organisation_member',
    );
    expect(events.map((e) => [e.type, e.subjectId, e.payload])).toEqual([
      ['organisation.member_added', user.id, { role: 'member' }],
      ['organisation.member_role_changed', user.id, { from: 'member', to: 'admin' }],
      ['organisation.member_removed', user.id, { role: 'admin' }],
    ]);
    expect(await logOf({ teamId: team.id }, 'organisation.member_added')).toEqual([]);
  });

  it('changes roles; only owners touch owners; the last owner stays', async () => {
    const organisation = await newOrganisation();
    const admin = await addOrganisationMember(organisation, 'admin');
    const member = await addOrganisationMember(organisation, 'member');
    const patch = (userId: string, role: string, token = organisation.owner.token) =>
      ctx.request({ method: 'PATCH', url: membersUrl(organisation, userId), token, payload: { role } });

    expect((await patch(member.id, 'owner', admin.token)).statusCode).toBe(403);
    expect((await patch(organisation.owner.id, 'member', admin.token)).statusCode).toBe(403);
    expect((await patch(member.id, 'admin', member.token)).statusCode).toBe(403);
    const demoteLast = await patch(organisation.owner.id, 'admin');
    expect(demoteLast.statusCode).toBe(409);
    expect(demoteLast.json().code).toBe('conflict');
    const promoted = await patch(member.id, 'admin', admin.token);
    expect(promoted.json()).toMatchObject({ userId: member.id, role: 'admin' });
    expect((await patch(admin.id, 'owner')).statusCode).toBe(200);
    expect((await patch(organisation.owner.id, 'member')).statusCode).toBe(200);
    expect((await patch(crypto.randomUUID(), 'member', admin.token)).statusCode).toBe(404);
    expect((await patch('not-a-uuid', 'member', admin.token)).statusCode).toBe(400);
    expect(await rolesOf(organisation)).toEqual({
      [organisation.owner.id]: 'member',
      [admin.id]: 'owner',
      [member.id]: 'admin',
    });
  });

  it('lets anyone leave but the last owner, and managers remove others (owners only by owners)', async () => {
    const organisation = await newOrganisation();
    const admin = await addOrganisationMember(organisation, 'admin');
    const [m1, m2] = [await addOrganisationMember(organisation), await addOrganisationMember(organisation)];
    const remove = (userId: string, token: string) =>
      ctx.request({ method: 'DELETE', url: membersUrl(organisation, userId), token });

    expect((await remove(m2.id, m1.token)).statusCode).toBe(403);
    expect((await remove(organisation.owner.id, admin.token)).statusCode).toBe(403);
    expect((await remove(organisation.owner.id, organisation.owner.token)).statusCode).toBe(409);
    expect((await remove(m1.id, m1.token)).statusCode).toBe(204);
    expect((await remove(m2.id, admin.token)).statusCode).toBe(204);
    expect((await remove(m2.id, admin.token)).statusCode).toBe(404);
    // Gone from the organisation, a former member reads nothing of it.
    expect((await remove(admin.id, m1.token)).statusCode).toBe(404);
    expect(await rolesOf(organisation)).toEqual({ [organisation.owner.id]: 'owner', [admin.id]: 'admin' });
  });

  it('keeps an owner when two owners step down at the same time', async () => {
    const organisation = await newOrganisation();
    const second = await addOrganisationMember(organisation, 'owner');
    for (let round = 0; round < 3; round++) {
      const [a, b] = await Promise.all([
        ctx.request({
          method: 'PATCH',
          url: membersUrl(organisation, organisation.owner.id),
          token: organisation.owner.token,
          payload: { role: 'admin' },
        }),
        ctx.request({ method: 'DELETE', url: membersUrl(organisation, second.id), token: second.token }),
      ]);
      const owners = await ctx.database.db
        .select()
        .from(organisationMembers)
        .where(
          and(eq(organisationMembers.organisationId, organisation.id), eq(organisationMembers.role, 'owner')),
        );
      expect(owners.length, `${a.statusCode} ${b.statusCode}`).toBe(1);
      // One step-down went through, the other found itself the last owner.
      expect(
        [a.statusCode, b.statusCode].filter((s) => s === 409),
        `${a.body} ${b.body}`,
      ).toHaveLength(1);
      expect([200, 204]).toContain(a.statusCode === 409 ? b.statusCode : a.statusCode);
      // Put both owners back for the next round.
      await ctx.database.db
        .insert(organisationMembers)
        .values([
          { organisationId: organisation.id, userId: organisation.owner.id, role: 'owner' },
          { organisationId: organisation.id, userId: second.id, role: 'owner' },
        ])
        .onConflictDoUpdate({
          target: [organisationMembers.organisationId, organisationMembers.userId],
          set: { role: 'owner' },
        });
    }
  });
});
