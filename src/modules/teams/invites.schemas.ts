import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp } from '../../shared/schemas.ts';

export const INVITE_ROLES = ['member', 'admin'] as const;

export const Invite = Type.Object({
  id: Id,
  teamId: Id,
  email: Type.String(),
  role: Type.Union(INVITE_ROLES.map((r) => Type.Literal(r))),
  expiresAt: Timestamp,
  createdAt: Timestamp,
});

export const InvitePage = Page(Invite);

/** The answer of creating or resending an invite: the only time its token is shown (it is kept hashed). */
export const IssuedInvite = Type.Object({
  ...Invite.properties,
  token: Type.String({
    description:
      'Single-use secret the invitee accepts with, also mailed to them; answered only here (lists never ' +
      'show it) and replaced by a resend',
  }),
});

export const DeclinedInvite = Type.Object({
  id: Id,
  teamId: Id,
  role: Type.Union(INVITE_ROLES.map((r) => Type.Literal(r))),
  expiresAt: Timestamp,
  declinedAt: Timestamp,
});
export const InvitesQuery = Type.Object(PageQuery);

export const CreateInviteBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 320 }),
  role: Type.Optional(
    Type.Union(
      INVITE_ROLES.map((r) => Type.Literal(r)),
      { default: 'member', description: 'Role on acceptance (extension); only owners may invite admins' },
    ),
  ),
});

export const InviteParams = Type.Object({ id: Id, inviteId: Id });
export const OwnInviteParams = Type.Object({ inviteId: Id });
export const InviteTokenParams = Type.Object({
  token: Type.String({ maxLength: 128, pattern: '^[A-Za-z0-9_-]{16,128}$' }),
});
