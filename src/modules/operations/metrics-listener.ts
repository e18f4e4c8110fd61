import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceMetrics } from './metrics.ts';

const NOT_FOUND = JSON.stringify({ error: 'Not found', code: 'not_found' });

/**
 * A listener of its own for `GET /metrics` (METRICS_PORT), so scrapes reach the metrics on a port that is not
 * exposed to the public and needs no token. Answers the address it listens on.
 */
export async function listenForMetrics(
  metrics: ServiceMetrics,
  host: string,
  port: number,
  log: FastifyBaseLogger,
): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?', 1)[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(NOT_FOUND);
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
      },
      (error: unknown) => {
        log.error({ err: error }, 'metrics could not be collected');
        response.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shown}:${address.port}/metrics`;
  log.info(`Metrics listening at ${url}`);
  return { server, url };
}
