import { Type } from '@sinclair/typebox';
import type { App } from '../../app-types.ts';
import { auth } from '../../plugins/auth.ts';

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  database: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
});

export async function healthRoutes(app: App) {
  app.get(
    '/api/v1/health',
    {
      config: { auth: auth.anonymous },
      schema: {
        operationId: 'health.get',
        summary: 'Liveness and database reachability',
        response: { 200: Health, 503: Health },
      },
    },
    async (_request, reply) => {
      const up = await app.deps.database.ping();
      return reply.code(up ? 200 : 503).send({
        status: up ? 'ok' : 'degraded',
        version: app.deps.config.version,
        database: up ? 'ok' : 'unavailable',
      });
    },
  );
}
