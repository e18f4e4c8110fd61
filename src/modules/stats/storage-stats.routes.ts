import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { StorageStats, StorageStatsQuery } from './storage-stats.schemas.ts';

export async function storageStatsRoutes(app: App) {
  const stats = app.services.storageStats;

  app.get(
    '/api/v1/stats/storage',
    {
      config: { auth: auth.session },
      schema: {
        operationId: 'stats.storage',
        summary: "The team's stored bytes and files (in total and per kind) against its plan's quota",
        description:
          '`reservedBytes` is what open uploads hold of the quota (each its announced size, else the bytes ' +
          'it received so far) until they are registered, discarded or expire; `availableBytes` is quota ' +
          'minus used bytes only. Session only (an API key gets 403 session_required): any member of the ' +
          'team (every role); a team the caller is not in is 404. Changes nothing.',
        querystring: StorageStatsQuery,
        response: { 200: StorageStats },
      },
    },
    async (request) => stats.get(principalOf(request), request.query.teamId),
  );
}
