import { Type } from '@sinclair/typebox';
import { CountedPage, CountQuery, Id, Page, PageQuery, Timestamp, Uuid } from '../../shared/schemas.ts';
import { TeamRoleSchema } from './teams.schemas.ts';

export const Member = Type.Object({
  userId: Uuid,
  name: Type.Union([Type.String(), Type.Null()]),
  email: Type.String(),
  role: TeamRoleSchema,
  joinedAt: Timestamp,
});

export const MemberPage = Page(Member);
export const MembersQuery = Type.Object(PageQuery);
/** The team's member list, which counts them on request. */
export const MemberListPage = CountedPage(Member);
export const MemberListQuery = Type.Object({ ...PageQuery, ...CountQuery });
export const DirectoryQuery = Type.Object({ teamId: Id, ...PageQuery });
export const MemberParams = Type.Object({ id: Id, userId: Uuid });
export const UpdateMemberBody = Type.Object({ role: TeamRoleSchema });

export const InvitableMember = Type.Object({
  id: Uuid,
  name: Type.Union([Type.String(), Type.Null()]),
  email: Type.String(),
});
export const InvitablePage = Page(InvitableMember);
