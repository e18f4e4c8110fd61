import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp } from '../../shared/schemas.ts';
import { TEAM_EXAMPLE } from './teams.schemas.ts';

export const INVITE_ROLES = ['member', 'admin'] as const;

const InviteRole = Type.Union(
  INVITE_ROLES.map((r) => Type.Literal(r)),
  { description: 'The role the invitee gets on accepting' },
);

const INVITE_EXAMPLE = {
  id: 31,
  teamId: TEAM_EXAMPLE.id,
  email: 'sam@nightdrives.example',
  role: 'member',
  expiresAt: '2026-03-21T09:30:00.000Z',
  createdAt: TEAM_EXAMPLE.at,
} as const;

export const Invite = Type.Object(
  {
    id: Id,
    teamId: Id,
    email: Type.String({ description: 'The invited address, normalised (NFKC, case-folded)' }),
    role: InviteRole,
    expiresAt: Timestamp,
    createdAt: Timestamp,
  },
  { title: 'TeamInvite', examples: [INVITE_EXAMPLE] },
);

export const InvitePage = Page(Invite);

/** The answer of creating or resending an invite: the only time its token is shown (it is kept hashed). */
export const IssuedInvite = Type.Object(
  {
    ...Invite.properties,
    token: Type.String({
      description:
        'Single-use secret the invitee accepts with, also mailed to them; answered only here (lists never ' +
        'show it) and replaced by a resend',
    }),
  },
  {
    title: 'IssuedTeamInvite',
    examples: [{ ...INVITE_EXAMPLE, token: 'EXAMPLE-invite-token-not-real' }],
  },
);

export const DeclinedInvite = Type.Object(
  {
    id: Id,
    teamId: Id,
    role: InviteRole,
    expiresAt: Timestamp,
    declinedAt: Timestamp,
  },
  {
    title: 'DeclinedTeamInvite',
    examples: [
      {
        id: INVITE_EXAMPLE.id,
        teamId: INVITE_EXAMPLE.teamId,
        role: INVITE_EXAMPLE.role,
        expiresAt: INVITE_EXAMPLE.expiresAt,
        declinedAt: '2026-03-16T08:12:00.000Z',
      },
    ],
  },
);
export const InvitesQuery = Type.Object(PageQuery);

export const CreateInviteBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    role: Type.Optional(
      Type.Union(
        INVITE_ROLES.map((r) => Type.Literal(r)),
        { default: 'member', description: 'Role on acceptance (extension); only owners may invite admins' },
      ),
    ),
  },
  { title: 'TeamInviteCreate', examples: [{ email: 'sam@nightdrives.example', role: 'member' }] },
);

export const InviteParams = Type.Object({ id: Id, inviteId: Id });
export const OwnInviteParams = Type.Object({ inviteId: Id });
export const InviteTokenParams = Type.Object({
  token: Type.String({ maxLength: 128, pattern: '^[A-Za-z0-9_-]{16,128}$' }),
});
