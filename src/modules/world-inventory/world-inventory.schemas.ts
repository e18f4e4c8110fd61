import { Type } from '@sinclair/typebox';
import { Id } from '../../shared/schemas.ts';

const Role = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')]);
const Count = Type.Integer({ minimum: 0 });

export const WorldInventory = Type.Object(
  {
    organisations: Type.Array(
      Type.Object({
        id: Id,
        name: Type.String(),
        role: Type.Union([Role, Type.Null()], {
          description: 'The user’s role in the organisation; null when they only belong to one of its teams',
        }),
        counts: Type.Object({ teams: Count, members: Count }),
        teamIds: Type.Array(Id, { description: 'The user’s teams in this organisation' }),
      }),
    ),
    teams: Type.Array(
      Type.Object({
        id: Id,
        name: Type.String(),
        slug: Type.String(),
        planId: Type.String(),
        role: Role,
        hiddenInSwitcher: Type.Boolean(),
        organisationId: Type.Union([Id, Type.Null()]),
        counts: Type.Object({
          members: Count,
          tracks: Type.Integer({
            minimum: 0,
            description: 'The team’s own tracks, soft-deleted ones left out',
          }),
          albums: Count,
        }),
      }),
    ),
  },
  {
    title: 'WorldInventory',
    examples: [
      {
        organisations: [
          {
            id: 2,
            name: 'Night Drives Collective',
            role: 'admin',
            counts: { teams: 3, members: 12 },
            teamIds: [7],
          },
        ],
        teams: [
          {
            id: 7,
            name: 'Luna Vale',
            slug: 'luna-vale',
            planId: 'pro',
            role: 'owner',
            hiddenInSwitcher: false,
            organisationId: 2,
            counts: { members: 3, tracks: 24, albums: 2 },
          },
        ],
      },
    ],
  },
);
