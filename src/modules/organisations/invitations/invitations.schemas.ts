import { Type } from '@sinclair/typebox';
import { exactlyOneOf, Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { EXAMPLE_TIME, EXAMPLE_USER, OrganisationRoleSchema } from '../organisations.schemas.ts';

const EXAMPLE_INVITATION = {
  id: 15,
  organisationId: 3,
  email: 'maya@okafor.example',
  userId: null,
  role: 'member',
  expiresAt: '2026-03-21T09:30:00.000Z',
  createdAt: EXAMPLE_TIME,
  invitedBy: EXAMPLE_USER,
};

export const OrganisationInvitation = Type.Object(
  {
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
    invitedBy: Type.Union([Uuid, Type.Null()], {
      description: 'Who sent it; null once that account is deleted',
    }),
  },
  {
    title: 'OrganisationInvitation',
    description: 'A pending invitation to join an organisation (its token is never listed)',
    examples: [EXAMPLE_INVITATION],
  },
);
export const OrganisationInvitationPage = Page(OrganisationInvitation);

/** The answer of creating or resending an invitation: the only time its token is shown (it is kept hashed). */
export const IssuedOrganisationInvitation = Type.Object(
  {
    ...OrganisationInvitation.properties,
    token: Type.String({
      description:
        'Single-use secret the invited person accepts or declines with, also mailed to an invited address; ' +
        'answered only here (lists never show it) and replaced by a resend',
    }),
  },
  {
    title: 'IssuedOrganisationInvitation',
    description: 'An invitation as creating or resending it answers: the only time its token is shown',
    examples: [{ ...EXAMPLE_INVITATION, token: 'q7Vt3mB9xKc2LwP0sRf8YhNd4EzUa6Gj' }],
  },
);
export const InvitationsQuery = Type.Object(PageQuery);

export const CreateInvitationBody = Type.Object(
  {
    userId: Type.Optional({ ...Uuid, description: "The person's user id; give userId or email" }),
    email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: 320,
        description: "The person's e-mail; give userId or email",
      }),
    ),
    role: Type.Optional({
      ...OrganisationRoleSchema,
      description: 'The role they join with: owner | admin | member (default); only owners invite owners',
    }),
  },
  {
    title: 'OrganisationInvitationCreate',
    ...exactlyOneOf('userId', 'email'),
    examples: [{ email: 'maya@okafor.example', role: 'member' }],
  },
);

export const DeclinedInvitation = Type.Object(
  {
    id: Id,
    organisationId: Id,
    role: OrganisationRoleSchema,
    expiresAt: Timestamp,
    declinedAt: Timestamp,
  },
  {
    title: 'DeclinedOrganisationInvitation',
    description: 'An invitation the invited person turned down',
    examples: [
      {
        id: 15,
        organisationId: 3,
        role: 'member',
        expiresAt: '2026-03-21T09:30:00.000Z',
        declinedAt: '2026-03-15T18:05:00.000Z',
      },
    ],
  },
);

export const InvitationParams = Type.Object({ id: Id, invitationId: Id });
export const OwnInvitationParams = Type.Object({ invitationId: Id });
export const InvitationTokenParams = Type.Object({
  token: Type.String({ maxLength: 128, pattern: '^[A-Za-z0-9_-]{16,128}$' }),
});
