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

export const OverviewStats = Type.Object({
  teamId: Id,
  tracks: ByStatus,
  albums: ByStatus,
  versions: Type.Object(Window.properties, { description: 'Versions added to the team’s tracks' }),
  comments: Type.Object(Window.properties, { description: 'Comments (replies included) on those versions' }),
  openTodos: Type.Integer({ minimum: 0, description: 'To-dos on the versions not done yet' }),
  pendingReviews: Type.Integer({ minimum: 0, description: 'Reviews asked for and not decided or withdrawn' }),
  plays: Type.Object({ last30Days: Count }),
  storage: Type.Object({
    usedBytes: Count,
    quotaBytes: Count,
    fileCount: Count,
  }),
});
