import { Type } from '@sinclair/typebox';
import { CountedPage, CountQuery, Id, PageQuery, Timestamp, Uuid } from '../../shared/schemas.ts';
import { OrganisationRoleSchema } from './organisations.schemas.ts';

export const OrganisationMember = Type.Object({
  userId: Uuid,
  name: Type.Union([Type.String(), Type.Null()]),
  email: Type.String(),
  role: OrganisationRoleSchema,
  joinedAt: Timestamp,
});
export const OrganisationMemberPage = CountedPage(OrganisationMember);
export const MembersQuery = Type.Object({ ...PageQuery, ...CountQuery });
export const MemberParams = Type.Object({ id: Id, userId: Uuid });

export const UpdateMemberBody = Type.Object({ role: OrganisationRoleSchema });
