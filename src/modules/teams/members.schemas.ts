import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../shared/schemas.ts';
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

export const MemberPage = Page(Member);
export const MembersQuery = Type.Object(PageQuery);
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
