import { Type } from '@sinclair/typebox';
import { CountedPage, CountQuery, Id, Page, PageQuery, Timestamp, Uuid } from '../../shared/schemas.ts';
import { TEAM_EXAMPLE, TeamRoleSchema } from './teams.schemas.ts';

export const Member = Type.Object(
  {
    userId: Uuid,
    name: Type.Union([Type.String(), Type.Null()], { description: 'Display name; null when not set' }),
    email: Type.String(),
    role: TeamRoleSchema,
    joinedAt: Timestamp,
  },
  {
    title: 'TeamMember',
    examples: [
      {
        userId: TEAM_EXAMPLE.memberId,
        name: 'Maya Torres',
        email: 'maya@lunavale.example',
        role: 'admin',
        joinedAt: '2026-03-15T11:00:00.000Z',
      },
    ],
  },
);

/** The team's directory, by name: the same members as the counted member list, so it is named apart from it. */
export const MemberPage = Type.Object(Page(Member).properties, { title: 'TeamDirectoryPage' });
export const MembersQuery = Type.Object(PageQuery);
/** The team's member list, which counts them on request. */
export const MemberListPage = CountedPage(Member);
export const MemberListQuery = Type.Object({ ...PageQuery, ...CountQuery });
export const DirectoryQuery = Type.Object({ teamId: Id, ...PageQuery });
export const MemberParams = Type.Object({ id: Id, userId: Uuid });
export const UpdateMemberBody = Type.Object(
  { role: TeamRoleSchema },
  { title: 'TeamMemberUpdate', examples: [{ role: 'admin' }] },
);

export const InvitableMember = Type.Object(
  {
    id: Uuid,
    name: Type.Union([Type.String(), Type.Null()]),
    email: Type.String(),
  },
  {
    title: 'InvitableTeamMember',
    description: 'A person who shares another team with the caller and is not in this one',
    examples: [
      { id: '0193a5f2-8e3a-7d5c-9b32-5e4f6a7b8c9d', name: 'Theo Park', email: 'theo@nightdrives.example' },
    ],
  },
);
export const InvitablePage = Page(InvitableMember);
