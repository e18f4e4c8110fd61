import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { App } from '../../app-types.ts';
import { auth, bearerToken } from '../../plugins/auth.ts';
import { errors } from '../../shared/errors.ts';
import { ServiceMetrics } from './metrics.ts';
import { Live, Ready } from './operations.schemas.ts';
import { checkReadiness } from './readiness.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's metrics; undefined unless METRICS_PORT or METRICS_TOKEN is set. */
    metrics: ServiceMetrics | undefined;
  }
}

// Probes and scrapes come every few seconds: their request lines would drown the log at info.
const QUIET = 'warn' as const;

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Liveness and readiness probes for orchestrators, and Prometheus metrics for operators. Not encapsulated:
 * the request counter sees every route, and `app.metrics` is the root's (server.ts serves it on METRICS_PORT).
 */
export const operationsRoutes = fp(
  async (app: App) => {
    const { config } = app.deps;
    const { port, token } = config.web.metrics;
    const metrics =
      port !== undefined || token !== undefined
        ? new ServiceMetrics({
            db: app.deps.database.db,
            clock: app.deps.clock,
            openStreams: () => app.services.chat.hub.size,
            pool: app.deps.database.pool,
          })
        : undefined;
    app.decorate('metrics', metrics);
    if (metrics)
      app.addHook('onResponse', (request, reply, done) => {
        metrics.observe(request, reply);
        done();
      });

    app.get(
      '/livez',
      {
        config: { auth: auth.anonymous, extension: true },
        logLevel: QUIET,
        schema: {
          operationId: 'health.live',
          tags: ['health'],
          summary: 'Liveness probe: the process is up',
          description:
            'Answers 200 while the process runs and its event loop turns; checks nothing else, so an orchestrator ' +
            'restarts the process only when it is stuck. Anonymous; not logged at info.',
          response: { 200: Live },
        },
      },
      async () => ({ status: 'ok' as const }),
    );

    app.get(
      '/readyz',
      {
        config: { auth: auth.anonymous, extension: true },
        logLevel: QUIET,
        schema: {
          operationId: 'health.ready',
          tags: ['health'],
          summary: 'Readiness probe: the database and configured dependencies answer',
          description:
            'Checks the database, and Redis and the S3 file store when they are configured, each within 2 seconds. ' +
            '200 when every configured one answers; 503 naming the ones that failed (take the process out of the ' +
            'load balancer, do not restart it). Anonymous; not logged at info.',
          response: { 200: Ready, 503: { ...Ready, description: 'A configured dependency did not answer' } },
        },
      },
      async (_request, reply) => {
        const { ready, checks } = await checkReadiness({
          pingDatabase: () => app.deps.database.ping(),
          pingRedis: (timeoutMs) => app.services.limits.ping(timeoutMs),
          s3: config.storage.settings.STORAGE_DRIVER === 's3' ? app.services.files.store : undefined,
        });
        const failed = Object.entries(checks)
          .filter(([, state]) => state === 'failed')
          .map(([name]) => name);
        return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks, failed });
      },
    );

    // Answered only to the metrics token: anyone else is told there is no such route.
    const expected = token === undefined ? undefined : digest(token);
    app.get(
      '/metrics',
      { config: { auth: auth.anonymous }, logLevel: QUIET, schema: { hide: true } },
      async (request, reply) => {
        const given = bearerToken(request);
        if (!metrics || !expected || given === null || !timingSafeEqual(digest(given), expected))
          throw errors.routeNotFound(request.method, request.url);
        const { contentType, body } = await metrics.render();
        return reply.type(contentType).header('cache-control', 'no-store').send(body);
      },
    );
  },
  { name: 'operations' },
);
