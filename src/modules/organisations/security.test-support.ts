import { expect, it } from 'vitest';
import type { TestContext, TestTeam } from '../../../test/helpers/context.ts';
import type { MatrixCase } from '../../../test/helpers/security-matrix.ts';
import { organisationHelpers, type TestOrganisation } from './organisations.test-support.ts';

type Built = { url: string; payload?: unknown };

/** Builders of the security matrix cases of the area: resources of an organisation the probed team is in. */
export function securityBuilds(ctx: TestContext) {
  const { newOrganisation, addTeam, newCamp } = organisationHelpers(ctx);
  const organisations = new Map<number, Promise<TestOrganisation>>();
  const camps = new Map<number, Promise<{ id: number; slug: string }>>();

  /** The organisation of the team's owner with the team in it (one per team): the team's members read it. */
  function organisationOf(team: TestTeam): Promise<TestOrganisation> {
    let organisation = organisations.get(team.id);
    if (!organisation) {
      organisation = newOrganisation(team.owner).then(async (made) => {
        await addTeam(made, team);
        return made;
      });
      organisations.set(team.id, organisation);
    }
    return organisation;
  }

  /** A camp of that organisation (one per team). */
  function campOf(team: TestTeam) {
    let camp = camps.get(team.id);
    if (!camp) {
      camp = organisationOf(team).then((organisation) => newCamp(organisation));
      camps.set(team.id, camp);
    }
    return camp;
  }

  const withPayload = (url: string, payload?: object): Built => ({ url, ...(payload ? { payload } : {}) });

  /** `/api/v1/organisations/{id}<suffix>` of the team's organisation. */
  const orgPath =
    (suffix = '', payload?: object) =>
    async (team: TestTeam) =>
      withPayload(`/api/v1/organisations/${(await organisationOf(team)).id}${suffix}`, payload);

  return { organisationOf, campOf, orgPath, withPayload, newOrganisation };
}

/** One test: the owner of another organisation gets 404 on every team-scoped case of the matrix. */
export function itHidesFromOtherOrganisations(ctx: TestContext, cases: MatrixCase[]): void {
  it("answers 404 to the owner of another organisation, whatever they ask of this one's", async () => {
    const stranger = await ctx.newTeam();
    await securityBuilds(ctx).organisationOf(stranger);
    for (const c of cases.filter((c) => c.teamScoped !== false)) {
      const { url, payload } = await c.build(await ctx.newTeam());
      const res = await ctx.request({
        method: c.method,
        url,
        token: stranger.owner.token,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(res.statusCode, `${c.method} ${c.path}`).toBe(404);
    }
  });
}

export const SPEC = { auth: 'session', extension: false };
export const EXTENSION = { auth: 'session', extension: true };
