import { Type } from '@sinclair/typebox';
import type { App } from '../../app-types.ts';
import { auth } from '../../plugins/auth.ts';

const Health = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')], {
      description: 'degraded when the database does not answer (then the status code is 503)',
    }),
    version: Type.String({ description: 'The version of the running service' }),
    database: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  },
  {
    title: 'Health',
    examples: [
      { status: 'ok', version: '0.1.0', database: 'ok' },
      { status: 'degraded', version: '0.1.0', database: 'unavailable' },
    ],
  },
);

export async function healthRoutes(app: App) {
  app.get(
    '/api/v1/health',
    {
      config: { auth: auth.anonymous },
      schema: {
        operationId: 'health.get',
        summary: 'Liveness and database reachability',
        description:
          'Anonymous (no token). 200 with `status: ok` when the database answers a ping; 503 with ' +
          '`status: degraded` and `database: unavailable` when it does not (the process stays up and ' +
          'recovers). Changes nothing. For orchestrators, /livez and /readyz are the probes to use.',
        response: { 200: Health, 503: { ...Health, description: 'The database does not answer' } },
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
