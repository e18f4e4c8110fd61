import type { TestContext, TestTeam, TestUser } from '../../../test/helpers/context.ts';
import { type EventOwner, ownerEvents } from '../../../test/helpers/events.ts';
import type { OrganisationRole } from '../../db/schema/index.ts';

type Fields = Record<string, unknown>;

export type TestOrganisation = { id: number; name: string; owner: TestUser };

/** Helpers of the organisations tests: organisations, teams in them, members and camps, made through the API. */
export function organisationHelpers(ctx: TestContext) {
  async function call(
    method: 'POST' | 'PATCH',
    url: string,
    token: string,
    payload: Fields,
    expected: number,
  ) {
    const res = await ctx.request({ method, url, token, payload });
    if (res.statusCode !== expected) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  /** An organisation owned by `owner` (a new user when not given). */
  async function newOrganisation(owner?: TestUser, name = `Org ${ctx.unique()}`): Promise<TestOrganisation> {
    const user = owner ?? (await ctx.newUser());
    const body = await call('POST', '/api/v1/organisations', user.token, { name }, 201);
    return { id: body.id, name: body.name, owner: user };
  }

  /** Adds the team as `token` (default: the organisation's owner, who must also manage the team). */
  function addTeam(organisation: TestOrganisation, team: TestTeam, token = organisation.owner.token) {
    return call('POST', `/api/v1/organisations/${organisation.id}/teams`, token, { teamId: team.id }, 201);
  }

  /** A team and an organisation of the same owner, the team in it. */
  async function organisationWithTeam(owner?: TestUser) {
    const team = await ctx.newTeam(owner);
    const organisation = await newOrganisation(team.owner);
    await addTeam(organisation, team);
    return { organisation, team };
  }

  /** Invites the user (by id) as `token` (default: the owner); answers the invitation with its token. */
  function inviteToOrganisation(
    organisation: TestOrganisation,
    invitee: { userId: string } | { email: string },
    role: OrganisationRole = 'member',
    token = organisation.owner.token,
  ) {
    return call(
      'POST',
      `/api/v1/organisations/${organisation.id}/invitations`,
      token,
      { ...invitee, role },
      201,
    );
  }

  /** Makes a user a member the way people join: the owner invites them by id and they accept. */
  async function addOrganisationMember(
    organisation: TestOrganisation,
    role: OrganisationRole = 'member',
    user?: TestUser,
  ): Promise<TestUser> {
    const member = user ?? (await ctx.newUser());
    const invitation = await inviteToOrganisation(organisation, { userId: member.id }, role);
    await call('POST', `/api/v1/organisation-invitations/${invitation.token}/accept`, member.token, {}, 200);
    return member;
  }

  /** A camp of the organisation, made by its owner. */
  function newCamp(organisation: TestOrganisation, fields: Fields = {}) {
    return call(
      'POST',
      `/api/v1/organisations/${organisation.id}/camps`,
      organisation.owner.token,
      { name: `Camp ${ctx.unique()}`, startsOn: '2030-06-01', endsOn: '2030-06-07', ...fields },
      201,
    );
  }

  /** The events of a team or of an organisation (of one type when given), in the order of the log. */
  const logOf = (owner: EventOwner, type?: string) => ownerEvents(ctx.database.db, owner, type);

  return {
    newOrganisation,
    addTeam,
    organisationWithTeam,
    inviteToOrganisation,
    addOrganisationMember,
    newCamp,
    logOf,
  };
}
