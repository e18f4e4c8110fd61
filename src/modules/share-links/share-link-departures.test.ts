import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { shareLinks } from '../../db/schema/index.ts';
import { shareLinkHelpers } from './share-links.test-support.ts';

const ctx = useTestContext();
const { call, newLink } = shareLinkHelpers(ctx);

/** The status of each link, in the order of `ids`, read as the owner of `team` reads it. */
async function statuses(team: TestTeam, ids: number[]) {
  const out: string[] = [];
  for (const id of ids)
    out.push((await call('GET', `/api/v1/share-links/${id}`, team.owner.token, undefined, 200)).body.status);
  return out;
}

/** A team with an admin; a link by the admin, one by the owner, and one by the admin in a team of theirs. */
async function adminWithLinks() {
  const team = await ctx.newTeam();
  const admin = await ctx.addMember(team, 'admin');
  const own = await ctx.newTeam(admin);
  const links = {
    byAdmin: (await newLink(team, {}, admin.token)).id,
    alsoByAdmin: (await newLink(team, {}, admin.token)).id,
    byOwner: (await newLink(team)).id,
    elsewhere: (await newLink(own)).id,
  };
  return { team, admin, own, links };
}

type Setup = Awaited<ReturnType<typeof adminWithLinks>>;

async function expectAdminsLinksRevoked({ team, own, links }: Setup) {
  expect(await statuses(team, [links.byAdmin, links.alsoByAdmin, links.byOwner])).toEqual([
    'revoked',
    'revoked',
    'active',
  ]);
  expect(await statuses(own, [links.elsewhere])).toEqual(['active']);
}

const removeMember = (team: TestTeam, member: TestUser, by: TestUser = team.owner) =>
  call('DELETE', `/api/v1/teams/${team.id}/members/${member.id}`, by.token, undefined, 204);

describe('review links end with their creator’s rights', () => {
  it("revokes a removed admin's links of that team only", async () => {
    const setup = await adminWithLinks();
    await removeMember(setup.team, setup.admin);
    await expectAdminsLinksRevoked(setup);
  });

  it('revokes the links of an admin who leaves, or is demoted to member', async () => {
    const leaving = await adminWithLinks();
    await removeMember(leaving.team, leaving.admin, leaving.admin);
    await expectAdminsLinksRevoked(leaving);

    const demoted = await adminWithLinks();
    await call(
      'PATCH',
      `/api/v1/teams/${demoted.team.id}/members/${demoted.admin.id}`,
      demoted.team.owner.token,
      { role: 'member' },
      200,
    );
    await expectAdminsLinksRevoked(demoted);
  });

  it('revokes the links of an admin who deletes the account', async () => {
    const setup = await adminWithLinks();
    const res = await call('DELETE', '/api/v1/user/account', setup.admin.token, {
      confirmation: 'DELETE MY ACCOUNT',
    });
    expect(res.status).toBe(202);
    const rows = await ctx.database.db
      .select({ id: shareLinks.id, revokedAt: shareLinks.revokedAt })
      .from(shareLinks)
      .where(inArray(shareLinks.id, [setup.links.byAdmin, setup.links.alsoByAdmin, setup.links.byOwner]));
    expect(
      rows
        .filter((r) => r.revokedAt !== null)
        .map((r) => r.id)
        .sort(),
    ).toEqual([setup.links.byAdmin, setup.links.alsoByAdmin].sort());
  });

  it('revokes the links a key made when the key is revoked', async () => {
    const team = await ctx.newTeam();
    const keep = await ctx.newApiKey(team, ['tracks:write']);
    const revoked = await call(
      'POST',
      `/api/v1/teams/${team.id}/api-keys`,
      team.owner.token,
      {
        name: 'to revoke',
        scopes: ['tracks:write'],
      },
      201,
    );
    const byRevoked = (await newLink(team, {}, revoked.body.key)).id;
    const byKept = (await newLink(team, {}, keep)).id;
    const byOwner = (await newLink(team)).id;
    await call(
      'DELETE',
      `/api/v1/teams/${team.id}/api-keys/${revoked.body.id}`,
      team.owner.token,
      undefined,
      204,
    );
    expect(await statuses(team, [byRevoked, byKept, byOwner])).toEqual(['revoked', 'active', 'active']);
  });

  it("revokes the links of a departed admin's keys with the keys", async () => {
    const team = await ctx.newTeam();
    const admin = await ctx.addMember(team, 'admin');
    const key = await call(
      'POST',
      `/api/v1/teams/${team.id}/api-keys`,
      admin.token,
      {
        name: 'admin key',
        scopes: ['tracks:write'],
      },
      201,
    );
    const byKey = (await newLink(team, {}, key.body.key)).id;
    const byOwner = (await newLink(team)).id;
    await removeMember(team, admin);
    expect(await statuses(team, [byKey, byOwner])).toEqual(['revoked', 'active']);
    const [row] = await ctx.database.db.select().from(shareLinks).where(eq(shareLinks.id, byKey));
    expect(row!.revokedAt).not.toBeNull();
  });
});
