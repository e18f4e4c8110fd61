import type { FastifyInstance } from 'fastify';

const IDLE_SWEEP_MS = 100;

/**
 * Closing the server ends the connections idle at that moment only: one whose response was still in flight
 * goes idle later and would hold the close open for the whole keep-alive timeout. While the server closes,
 * connections are swept again as they go idle.
 */
export function drainOnClose(app: FastifyInstance): void {
  app.addHook('preClose', (done) => {
    const server = app.server;
    if (!server.listening) return done();
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweep.unref();
    server.once('close', () => clearInterval(sweep));
    done();
  });
}
