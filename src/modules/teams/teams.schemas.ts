import { Type } from '@sinclair/typebox';
import { TEAM_ROLES } from '../../db/schema/index.ts';
import { Id, Page, PageQuery, Timestamp } from '../../shared/schemas.ts';
import { Slug } from '../../shared/slugs.ts';

export const TeamRoleSchema = Type.Union(
  TEAM_ROLES.map((r) => Type.Literal(r)),
  {
    description:
      'owner and admin also manage the team (members, invites, API keys, media deletion, status configuration, banner); every member works on its tracks and albums',
  },
);

/** A team as one of its members sees it. */
export const Team = Type.Object({
  id: Id,
  name: Type.String(),
  slug: Type.String({
    description: 'Unique; names the team in interview paths (/interviews/public/teams/{slug})',
  }),
  planId: Type.String(),
  role: TeamRoleSchema,
  hidden: Type.Boolean({ description: "Hidden from the caller's team switcher" }),
  memberCount: Type.Integer({ minimum: 0 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const TeamPage = Page(Team);
export const TeamsQuery = Type.Object(PageQuery);

const TeamName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });

export const CreateTeamBody = Type.Object({ name: TeamName });

export const UpdateTeamBody = Type.Object(
  {
    name: Type.Optional(TeamName),
    slug: Type.Optional(Slug),
  },
  {
    minProperties: 1,
    description: 'Only the fields given change. A new name keeps the slug; a slug another team has is 409.',
  },
);

export const LookupQuery = Type.Object({
  q: Type.Optional(
    Type.String({ maxLength: 100, description: 'Case-insensitive substring of the team name' }),
  ),
  ...PageQuery,
});

export const TeamIdQuery = Type.Object({ teamId: Id });

export const Plan = Type.Object({
  id: Type.String(),
  name: Type.String(),
  apiRequestsPerMinute: Type.Integer(),
  storageQuotaBytes: Type.Integer(),
  maxMembers: Type.Integer(),
});

export const Overview = Type.Object({
  teamId: Id,
  counts: Type.Object(
    {
      members: Type.Integer({ minimum: 0 }),
      pendingInvites: Type.Integer({ minimum: 0 }),
      apiKeys: Type.Integer({ minimum: 0, description: 'Live (not revoked, not expired) API keys' }),
    },
    {
      additionalProperties: Type.Integer({ minimum: 0 }),
      description: 'Counts per kind of team data; further areas add their own keys',
    },
  ),
  plan: Plan,
});

export const SwitcherVisibilityBody = Type.Object({ hidden: Type.Boolean() });
export const SwitcherVisibility = Type.Object({ teamId: Id, hidden: Type.Boolean() });

const NETWORK = '^[a-z][a-z0-9_-]{0,39}$';
export const MAX_SOCIAL_LINKS = 30;

export const Socials = Type.Object({
  teamId: Id,
  socials: Type.Record(Type.String({ pattern: NETWORK }), Type.String(), {
    description: 'Network name → http(s) URL',
  }),
});

export const SocialsPatchBody = Type.Object({
  socials: Type.Record(
    Type.String({ pattern: NETWORK }),
    Type.Union([Type.String({ minLength: 1, maxLength: 2048 }), Type.Null()]),
    {
      additionalProperties: false,
      maxProperties: MAX_SOCIAL_LINKS,
      description: 'Links to set (http or https URLs); null removes a network; networks not named are kept',
    },
  ),
});
