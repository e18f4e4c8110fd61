import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { IdParams, NoContent } from '../../shared/schemas.ts';
import { bannerRoutes } from './banner.routes.ts';
import { conflictResponse } from './conflict-response.ts';
import { invitesRoutes } from './invites.routes.ts';
import { mediaRoutes } from './media.routes.ts';
import { membersRoutes } from './members.routes.ts';
import { statusConfigRoutes } from './status-config.routes.ts';
import {
  CreateTeamBody,
  LookupQuery,
  MAX_SOCIAL_LINKS,
  Overview,
  Plan,
  Socials,
  SocialsPatchBody,
  SwitcherVisibility,
  SwitcherVisibilityBody,
  Team,
  TeamIdQuery,
  TeamPage,
  TeamsQuery,
  UpdateTeamBody,
} from './teams.schemas.ts';

const session = { config: { auth: auth.session } } as const;
const extension = { config: { auth: auth.session, extension: true } } as const;

/** The teams area: teams themselves here, then members, invites and status configuration. */
export async function teamsRoutes(app: App) {
  const teams = app.services.teams;

  app.get(
    '/api/v1/teams/',
    {
      ...session,
      schema: {
        operationId: 'teams.list',
        summary: 'List the teams you belong to, with your role and switcher visibility',
        description:
          'Session tokens only (an API key gets 403 `session_required`). Every team the caller is a member of, ' +
          "in the order they were created, with the caller's role and whether they hid it from their switcher. " +
          'Changes nothing.',
        querystring: TeamsQuery,
        response: { 200: TeamPage },
      },
    },
    async (request) => teams.list(principalOf(request), pageOf(request.query)),
  );

  app.post(
    '/api/v1/teams/',
    {
      ...session,
      schema: {
        operationId: 'teams.create',
        summary: 'Create a team on the default plan with the default statuses; you become its owner',
        description:
          'Session tokens only. Any signed-in user may create a team: it starts on the default plan with the ' +
          'default track and album statuses, the caller as its only member (owner), and a slug made from its ' +
          'name (`-2`, `-3`, ... when taken). Answers 201 with the team.',
        body: CreateTeamBody,
        response: { 201: Team },
      },
    },
    async (request, reply) => reply.code(201).send(await teams.create(principalOf(request), request.body)),
  );

  app.get(
    '/api/v1/teams/lookup',
    {
      ...session,
      schema: {
        operationId: 'teams.lookup',
        summary: 'Find your teams whose name contains q (case-insensitive); all of them without q',
        description:
          'Session tokens only. Searches only the teams the caller belongs to; other teams are never found. ' +
          'Changes nothing.',
        querystring: LookupQuery,
        response: { 200: TeamPage },
      },
    },
    async (request) => {
      const { q, limit, cursor } = request.query;
      return teams.list(principalOf(request), { limit: limit ?? 50, cursor }, q);
    },
  );

  app.get(
    '/api/v1/teams/socials',
    {
      ...session,
      schema: {
        operationId: 'teams.socials.get',
        summary: "The team's social links: network → http(s) URL",
        description:
          'Session tokens only; any member of the team (`teamId`) may read them. 404 for a team the caller does ' +
          'not belong to.',
        querystring: TeamIdQuery,
        response: { 200: Socials },
      },
    },
    async (request) => teams.socials(principalOf(request), request.query.teamId),
  );

  app.patch(
    '/api/v1/teams/:id/socials',
    {
      ...extension,
      schema: {
        operationId: 'teams.socials.update',
        summary: "Set or remove the team's social links (owner or admin)",
        description:
          'Session tokens only; owners and admins (403 `forbidden` for members, 404 for non-members). Merges the ' +
          'links given into the current ones: a URL sets a network, null removes it, networks not named stay. ' +
          `A URL that is not http(s), or more than ${MAX_SOCIAL_LINKS} networks in all, is 400 validation_failed.`,
        params: IdParams,
        body: SocialsPatchBody,
        response: { 200: Socials },
      },
    },
    async (request) => teams.updateSocials(principalOf(request), request.params.id, request.body.socials),
  );

  app.get(
    '/api/v1/teams/:id',
    {
      config: { ...session.config, deferSessionCheck: true },
      schema: {
        operationId: 'teams.get',
        summary: 'The team, with your role and its member count',
        description:
          'Session tokens only; members of the team. 404 for a team the caller does not belong to (another ' +
          "tenant's team is never revealed).",
        params: IdParams,
        response: { 200: Team },
      },
    },
    async (request) => teams.get(principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/teams/:id',
    {
      ...extension,
      schema: {
        operationId: 'teams.update',
        summary: 'Rename the team or change its slug (owner or admin)',
        description:
          'Session tokens only; owners and admins (403 `forbidden` for members). A new team gets its slug from ' +
          'its name (lower-case ASCII, hyphens, -2, -3, ... when taken); a later rename keeps it, so public ' +
          'interview links stay valid until the slug itself is changed here. Records a `team.updated` event. ' +
          '409 `conflict` when another team has the slug.',
        params: IdParams,
        body: UpdateTeamBody,
        response: { 200: Team, ...conflictResponse('The slug belongs to another team') },
      },
    },
    async (request) => teams.update(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/teams/:id',
    {
      ...extension,
      schema: {
        operationId: 'teams.delete',
        summary: 'Delete the team with everything it holds (owner only)',
        description:
          'Session tokens only; owners only (403 `forbidden` for admins and members). Deletes the team at once ' +
          'with its tracks, albums, files, sessions, contacts, financial entries, webhook endpoints, invites and ' +
          'memberships; its API keys stop working. Cannot be undone.',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await teams.remove(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/teams/:id/overview',
    {
      ...session,
      schema: {
        operationId: 'teams.overview',
        summary: 'Counts for a team dashboard (members, pending invites, API keys, ...) and the plan',
        description:
          'Session tokens only; any member. `counts` always has members, pendingInvites and apiKeys; other areas ' +
          'may add their own counts. Changes nothing.',
        params: IdParams,
        response: { 200: Overview },
      },
    },
    async (request) => teams.overview(principalOf(request), request.params.id),
  );

  app.get(
    '/api/v1/teams/:id/plan',
    {
      ...session,
      schema: {
        operationId: 'teams.plan',
        summary: "The team's plan and its limits",
        description:
          "Session tokens only; any member. The limits the plan sets: the API keys' shared request budget, " +
          'the storage quota and the seats (members plus pending invites).',
        params: IdParams,
        response: { 200: Plan },
      },
    },
    async (request) => teams.plan(principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/teams/:id/switcher-visibility',
    {
      ...session,
      schema: {
        operationId: 'teams.switcherVisibility.update',
        summary: 'Hide or show the team in your own team switcher',
        description:
          'Session tokens only; any member, for themselves: other members do not see the change. The team stays ' +
          'in GET /teams with `hidden: true` and in the world inventory with `hiddenInSwitcher: true`.',
        params: IdParams,
        body: SwitcherVisibilityBody,
        response: { 200: SwitcherVisibility },
      },
    },
    async (request) =>
      teams.setSwitcherVisibility(principalOf(request), request.params.id, request.body.hidden),
  );

  await membersRoutes(app);
  await invitesRoutes(app);
  await statusConfigRoutes(app);
  await mediaRoutes(app);
  await bannerRoutes(app);
}
