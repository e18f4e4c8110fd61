import { Type } from '@sinclair/typebox';
import { Id } from '../../shared/schemas.ts';

export const OverviewStatsQuery = Type.Object({ teamId: Id });

const Count = Type.Integer({ minimum: 0 });

const ByStatus = Type.Object({
  total: Count,
  byStatus: Type.Array(Type.Object({ statusId: Type.String(), name: Type.String(), count: Count }), {
    description:
      "Every status of the team's board in its order (zero counts included), then any status no longer on the board that still holds items",
  }),
});

const Window = Type.Object({
  last7Days: Count,
  last30Days: Count,
});

export const OverviewStats = Type.Object(
  {
    teamId: Id,
    tracks: ByStatus,
    albums: ByStatus,
    versions: Type.Object(Window.properties, { description: 'Versions added to the team’s tracks' }),
    comments: Type.Object(Window.properties, {
      description: 'Comments (replies included) on those versions',
    }),
    openTodos: Type.Integer({ minimum: 0, description: 'To-dos on the versions not done yet' }),
    pendingReviews: Type.Integer({
      minimum: 0,
      description: 'Reviews asked for and not decided or withdrawn',
    }),
    plays: Type.Object({ last30Days: Count }),
    storage: Type.Object({
      usedBytes: Count,
      quotaBytes: Count,
      fileCount: Count,
    }),
  },
  {
    title: 'OverviewStats',
    examples: [
      {
        teamId: 7,
        tracks: {
          total: 14,
          byStatus: [
            { statusId: 'idea', name: 'Idea', count: 5 },
            { statusId: 'writing', name: 'Writing', count: 2 },
            { statusId: 'recording', name: 'Recording', count: 2 },
            { statusId: 'mixing', name: 'Mixing', count: 3 },
            { statusId: 'mastering', name: 'Mastering', count: 1 },
            { statusId: 'ready', name: 'Ready', count: 0 },
            { statusId: 'released', name: 'Released', count: 1 },
          ],
        },
        albums: {
          total: 2,
          byStatus: [
            { statusId: 'idea', name: 'Idea', count: 1 },
            { statusId: 'planning', name: 'Planning', count: 1 },
            { statusId: 'in_production', name: 'In production', count: 0 },
            { statusId: 'ready', name: 'Ready', count: 0 },
            { statusId: 'released', name: 'Released', count: 0 },
          ],
        },
        versions: { last7Days: 4, last30Days: 11 },
        comments: { last7Days: 18, last30Days: 52 },
        openTodos: 6,
        pendingReviews: 1,
        plays: { last30Days: 87 },
        storage: { usedBytes: 1_288_490_189, quotaBytes: 107_374_182_400, fileCount: 143 },
      },
    ],
  },
);
