import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp } from '../../../shared/schemas.ts';

export const Group = Type.Object(
  {
    id: Id,
    teamId: Id,
    name: Type.String(),
    memberCount: Type.Integer({ minimum: 0, description: 'Contacts in the group' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'ContactGroup',
    description: "A named group of a team's contacts",
    examples: [
      {
        id: 3,
        teamId: 7,
        name: 'Music supervisors',
        memberCount: 14,
        createdAt: '2026-03-01T10:00:00.000Z',
        updatedAt: '2026-03-01T10:00:00.000Z',
      },
    ],
  },
);

export const CreateGroupBody = Type.Object(
  {
    teamId: Id,
    name: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '\\S',
      description: 'Unique in the team, case-insensitively; stored without surrounding spaces',
    }),
  },
  { title: 'ContactGroupCreate', examples: [{ teamId: 7, name: 'Music supervisors' }] },
);

export const GroupListQuery = Type.Object({ teamId: Id, ...PageQuery });

export const GroupPage = Page(Group);
