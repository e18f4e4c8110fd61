import { Type } from '@sinclair/typebox';
import { TEAM_ROLES } from '../../db/schema/index.ts';
import { Id, Page, PageQuery, Timestamp } from '../../shared/schemas.ts';
import { Slug } from '../../shared/slugs.ts';

/** Values the examples of the teams area share, so a team, its members and its invites agree. */
export const TEAM_EXAMPLE = {
  id: 7,
  name: 'Luna Vale',
  slug: 'luna-vale',
  ownerId: '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b',
  memberId: '0193a5f2-7d2f-7c4b-8a21-4d3e5f6a7b8c',
  at: '2026-03-14T09:30:00.000Z',
} as const;

export const TeamRoleSchema = Type.Union(
  TEAM_ROLES.map((r) => Type.Literal(r)),
  {
    description:
      'owner and admin also manage the team (members, invites, API keys, media deletion, status configuration, banner); every member works on its tracks and albums',
  },
);

/** A team as one of its members sees it. */
export const Team = Type.Object(
  {
    id: Id,
    name: Type.String(),
    slug: Type.String({
      description: 'Unique; names the team in interview paths (/interviews/public/teams/{slug})',
    }),
    planId: Type.String({ description: 'The plan the team is on (free, pro, label, enterprise, ...)' }),
    role: TeamRoleSchema,
    hidden: Type.Boolean({ description: "Hidden from the caller's team switcher" }),
    memberCount: Type.Integer({ minimum: 0 }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'Team',
    examples: [
      {
        id: TEAM_EXAMPLE.id,
        name: TEAM_EXAMPLE.name,
        slug: TEAM_EXAMPLE.slug,
        planId: 'free',
        role: 'owner',
        hidden: false,
        memberCount: 3,
        createdAt: TEAM_EXAMPLE.at,
        updatedAt: '2026-03-20T18:05:00.000Z',
      },
    ],
  },
);

export const TeamPage = Page(Team);
export const TeamsQuery = Type.Object(PageQuery);

const TeamName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });

export const CreateTeamBody = Type.Object(
  { name: TeamName },
  { title: 'TeamCreate', examples: [{ name: TEAM_EXAMPLE.name }] },
);

export const UpdateTeamBody = Type.Object(
  {
    name: Type.Optional(TeamName),
    slug: Type.Optional(Slug),
  },
  {
    title: 'TeamUpdate',
    minProperties: 1,
    description: 'Only the fields given change. A new name keeps the slug; a slug another team has is 409.',
    examples: [{ name: 'Luna Vale & The Night Drives', slug: 'luna-vale-night-drives' }],
  },
);

export const LookupQuery = Type.Object({
  q: Type.Optional(
    Type.String({ maxLength: 100, description: 'Case-insensitive substring of the team name' }),
  ),
  ...PageQuery,
});

export const TeamIdQuery = Type.Object({ teamId: Id });

const FREE_PLAN = {
  id: 'free',
  name: 'Free',
  apiRequestsPerMinute: 120,
  storageQuotaBytes: 5_368_709_120,
  maxMembers: 5,
};

export const Plan = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    apiRequestsPerMinute: Type.Integer({ description: "Requests per minute the team's API keys share" }),
    storageQuotaBytes: Type.Integer({ description: 'Bytes of files the team may store' }),
    maxMembers: Type.Integer({ description: 'Seats: members and pending invites together' }),
  },
  { title: 'TeamPlan', examples: [FREE_PLAN] },
);

export const Overview = Type.Object(
  {
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
  },
  {
    title: 'TeamOverview',
    examples: [
      { teamId: TEAM_EXAMPLE.id, counts: { members: 3, pendingInvites: 1, apiKeys: 2 }, plan: FREE_PLAN },
    ],
  },
);

export const SwitcherVisibilityBody = Type.Object(
  { hidden: Type.Boolean({ description: "true hides the team from the caller's own team switcher" }) },
  { title: 'TeamSwitcherVisibilityUpdate', examples: [{ hidden: true }] },
);
export const SwitcherVisibility = Type.Object(
  { teamId: Id, hidden: Type.Boolean() },
  { title: 'TeamSwitcherVisibility', examples: [{ teamId: TEAM_EXAMPLE.id, hidden: true }] },
);

const NETWORK = '^[a-z][a-z0-9_-]{0,39}$';
export const MAX_SOCIAL_LINKS = 30;

export const Socials = Type.Object(
  {
    teamId: Id,
    socials: Type.Record(Type.String({ pattern: NETWORK }), Type.String(), {
      description: 'Network name → http(s) URL',
    }),
  },
  {
    title: 'TeamSocials',
    examples: [
      {
        teamId: TEAM_EXAMPLE.id,
        socials: {
          instagram: 'https://instagram.com/lunavale',
          website: 'https://lunavale.example',
        },
      },
    ],
  },
);

export const SocialsPatchBody = Type.Object(
  {
    socials: Type.Record(
      Type.String({ pattern: NETWORK }),
      Type.Union([Type.String({ minLength: 1, maxLength: 2048 }), Type.Null()]),
      {
        additionalProperties: false,
        maxProperties: MAX_SOCIAL_LINKS,
        description: 'Links to set (http or https URLs); null removes a network; networks not named are kept',
      },
    ),
  },
  {
    title: 'TeamSocialsUpdate',
    examples: [{ socials: { website: 'https://lunavale.example', tiktok: null } }],
  },
);
