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
  { description: "A named group of a team's contacts" },
);

export const CreateGroupBody = Type.Object({
  teamId: Id,
  name: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '\\S',
    description: 'Unique in the team, case-insensitively; stored without surrounding spaces',
  }),
});

export const GroupListQuery = Type.Object({ teamId: Id, ...PageQuery });

export const GroupPage = Page(Group);
