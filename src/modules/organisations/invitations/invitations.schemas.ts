import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { OrganisationRoleSchema } from '../organisations.schemas.ts';

export const OrganisationInvitation = Type.Object({
  id: Id,
  organisationId: Id,
  email: Type.Union([Type.String(), Type.Null()], {
    description: 'The address invited (normalised), or null for an invitation to a user id',
  }),
  userId: Type.Union([Uuid, Type.Null()], {
    description: 'The user id invited, or null for an invitation to an address',
  }),
  role: OrganisationRoleSchema,
  expiresAt: Timestamp,
  createdAt: Timestamp,
  invitedBy: Type.Union([Uuid, Type.Null()]),
});
export const OrganisationInvitationPage = Page(OrganisationInvitation);

/** The answer of creating or resending an invitation: the only time its token is shown (it is kept hashed). */
export const IssuedOrganisationInvitation = Type.Object({
  ...OrganisationInvitation.properties,
  token: Type.String({
    description:
      'Single-use secret the invited person accepts or declines with, also mailed to an invited address; ' +
      'answered only here (lists never show it) and replaced by a resend',
  }),
});
export const InvitationsQuery = Type.Object(PageQuery);

export const CreateInvitationBody = Type.Object({
  userId: Type.Optional(Uuid),
  email: Type.Optional(
    Type.String({
      format: 'email',
      maxLength: 320,
      description: "The person's e-mail; give userId or email",
    }),
  ),
  role: Type.Optional(OrganisationRoleSchema),
});

export const DeclinedInvitation = Type.Object({
  id: Id,
  organisationId: Id,
  role: OrganisationRoleSchema,
  expiresAt: Timestamp,
  declinedAt: Timestamp,
});

export const InvitationParams = Type.Object({ id: Id, invitationId: Id });
export const OwnInvitationParams = Type.Object({ invitationId: Id });
export const InvitationTokenParams = Type.Object({
  token: Type.String({ maxLength: 128, pattern: '^[A-Za-z0-9_-]{16,128}$' }),
});
