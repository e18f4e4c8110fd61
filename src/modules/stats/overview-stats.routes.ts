import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { OverviewStats, OverviewStatsQuery } from './overview-stats.schemas.ts';

export async function overviewStatsRoutes(app: App) {
  const stats = app.services.overviewStats;

  app.get(
    '/api/v1/stats/overview',
    {
      config: { auth: auth.session },
      schema: {
        operationId: 'stats.overview',
        summary: "A team's dashboard: tracks and albums per status, recent activity, open work, storage",
        description:
          "Counts the team's own tracks (not those shared with it), leaving soft-deleted tracks out. versions " +
          'and comments count what was added in the last 7 and 30 days; plays the plays of the last 30 days; ' +
          'openTodos and pendingReviews what is open now. Session only (an API key gets 403 ' +
          'session_required): any member of the team (every role); a team the caller is not in is 404. ' +
          'Changes nothing.',
        querystring: OverviewStatsQuery,
        response: { 200: OverviewStats },
      },
    },
    async (request) => stats.get(principalOf(request), request.query.teamId),
  );
}
