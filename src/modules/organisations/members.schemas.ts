import { Type } from '@sinclair/typebox';
import { CountedPage, CountQuery, Id, PageQuery, Timestamp, Uuid } from '../../shared/schemas.ts';
import { EXAMPLE_TIME, EXAMPLE_USER, OrganisationRoleSchema } from './organisations.schemas.ts';

export const OrganisationMember = Type.Object(
  {
    userId: Uuid,
    name: Type.Union([Type.String(), Type.Null()]),
    email: Type.String(),
    role: OrganisationRoleSchema,
    joinedAt: Timestamp,
  },
  {
    title: 'OrganisationMember',
    description: 'A person with a role in the organisation (members of its teams are not listed)',
    examples: [
      {
        userId: EXAMPLE_USER,
        name: 'Luna Vale',
        email: 'luna@lunavale.example',
        role: 'owner',
        joinedAt: EXAMPLE_TIME,
      },
    ],
  },
);
export const OrganisationMemberPage = CountedPage(OrganisationMember);
export const MembersQuery = Type.Object({ ...PageQuery, ...CountQuery });
export const MemberParams = Type.Object({ id: Id, userId: Uuid });

export const UpdateMemberBody = Type.Object(
  { role: OrganisationRoleSchema },
  { title: 'OrganisationMemberUpdate', examples: [{ role: 'admin' }] },
);
