import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { albumHelpers } from '../../../test/helpers/albums.ts';
import { useTestContext } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import {
  type OrganisationRole,
  organisationMembers,
  organisations,
  organisationTeams,
  teamMembers,
  tracks,
} from '../../db/schema/index.ts';
import { planWithoutSeqScans, seqScannedTables } from '../stats/query-plan.test-support.ts';
import { organisationsOfUser, teamsOfUser } from './world-inventory.repository.ts';

const ctx = useTestContext();
const { newAlbum } = albumHelpers(ctx);

const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: '/api/v1/user/world-inventory',
    teamScoped: false,
    build: () => ({ url: '/api/v1/user/world-inventory' }),
  },
];

async function newOrganisation(name: string, members: [string, OrganisationRole][], teamIds: number[]) {
  const db = ctx.database.db;
  const [organisation] = await db.insert(organisations).values({ name }).returning();
  const id = organisation!.id;
  if (members.length)
    await db
      .insert(organisationMembers)
      .values(members.map(([userId, role]) => ({ organisationId: id, userId, role })));
  if (teamIds.length)
    await db.insert(organisationTeams).values(teamIds.map((teamId) => ({ organisationId: id, teamId })));
  return id;
}

const inventory = (token: string) =>
  ctx.request({ method: 'GET', url: '/api/v1/user/world-inventory', token });

describe('GET /api/v1/user/world-inventory', () => {
  it('lists the user’s organisations and teams with their roles and counts', async () => {
    const db = ctx.database.db;
    const alpha = await ctx.newTeam(undefined, 'alpha Records');
    const user = alpha.owner;
    await ctx.addMember(alpha, 'member');
    await ctx.newTrack(alpha);
    const gone = await ctx.newTrack(alpha);
    await db.update(tracks).set({ deletedAt: new Date() }).where(eq(tracks.id, gone.id));
    await newAlbum(alpha);

    const beta = await ctx.newTeam(undefined, 'Beta Studio');
    await ctx.addMember(beta, 'member', user);
    await ctx.newTrack(beta);
    await ctx.newTrack(beta);
    const gamma = await ctx.newTeam(undefined, 'Gamma');
    await ctx.addMember(gamma, 'admin', user);
    await db
      .update(teamMembers)
      .set({ hiddenInSwitcher: true })
      .where(and(eq(teamMembers.teamId, gamma.id), eq(teamMembers.userId, user.id)));
    const outside = await ctx.newTeam(undefined, 'Outside');

    const label = await newOrganisation(
      'Label',
      [
        [user.id, 'admin'],
        [beta.owner.id, 'owner'],
      ],
      [alpha.id, outside.id],
    );
    const holding = await newOrganisation('holding', [[beta.owner.id, 'owner']], [beta.id]);
    const club = await newOrganisation('Club', [[user.id, 'member']], []);
    await newOrganisation('Unrelated', [[outside.owner.id, 'owner']], []);

    const res = await inventory(user.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      organisations: [
        { id: club, name: 'Club', role: 'member', counts: { teams: 0, members: 1 }, teamIds: [] },
        { id: holding, name: 'holding', role: null, counts: { teams: 1, members: 1 }, teamIds: [beta.id] },
        { id: label, name: 'Label', role: 'admin', counts: { teams: 2, members: 2 }, teamIds: [alpha.id] },
      ],
      teams: [
        {
          id: alpha.id,
          name: 'alpha Records',
          slug: expect.any(String),
          planId: 'free',
          role: 'owner',
          hiddenInSwitcher: false,
          organisationId: label,
          counts: { members: 2, tracks: 1, albums: 1 },
        },
        {
          id: beta.id,
          name: 'Beta Studio',
          slug: expect.any(String),
          planId: 'free',
          role: 'member',
          hiddenInSwitcher: false,
          organisationId: holding,
          counts: { members: 2, tracks: 2, albums: 0 },
        },
        {
          id: gamma.id,
          name: 'Gamma',
          slug: expect.any(String),
          planId: 'free',
          role: 'admin',
          hiddenInSwitcher: true,
          organisationId: null,
          counts: { members: 2, tracks: 0, albums: 0 },
        },
      ],
    });
  });

  it('answers empty lists to a user with no team or organisation', async () => {
    const loner = await ctx.newUser();
    expect((await inventory(loner.token)).json()).toEqual({ organisations: [], teams: [] });
  });

  it('reads through indexes, one statement per list whatever the number of teams', async () => {
    const team = await ctx.newTeam();
    const userId = team.owner.id;
    for (const query of [
      teamsOfUser(ctx.database.db, userId),
      organisationsOfUser(ctx.database.db, userId),
    ]) {
      const plan = await planWithoutSeqScans(ctx.database, query.toSQL());
      expect(seqScannedTables(plan), plan).toEqual([]);
    }
  });

  it('is session-only (S)', async () => {
    await expectAreaAuthClasses(
      ctx,
      (r) => r.operationId === 'user.worldInventory',
      { 'GET /api/v1/user/world-inventory': { auth: 'session', extension: false } },
      cases,
    );
  });
});

describeSecurityMatrix(ctx, cases);
