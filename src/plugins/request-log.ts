import type { FastifyRequest } from 'fastify';
import { errorLogView } from './error-log.ts';
import type { PathTokens } from './path-tokens.ts';

/** Fields pino hides wherever they appear in a log line. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  '*.password',
  '*.refresh_token',
  '*.access_token',
  '*.token',
  '*.ticket',
  '*.secret',
];

const SIGNED_QUERY = /([?&](?:token|ticket|x-amz-signature|x-amz-credential|x-amz-security-token)=)[^&#]*/gi;

/**
 * A URL as it may be logged: the signature of a signed URL (query), a stream ticket, and the token of a token path (an
 * invite, a join link, a calendar feed, a public cover) are credentials, so they are replaced.
 */
export function redactUrl(url: string, pathTokens: PathTokens): string {
  return pathTokens.redact(url).replace(SIGNED_QUERY, '$1[redacted]');
}

/** The request part of a log line: Fastify's own fields, with the URL redacted. */
const requestLogView = (pathTokens: PathTokens) => (request: FastifyRequest) => ({
  method: request.method,
  url: redactUrl(request.url, pathTokens),
  host: request.host,
  remoteAddress: request.ip,
  remotePort: request.socket?.remotePort,
});

/** Logger options of the service at `level`; `pathTokens` learns the app's token paths as routes are added. */
export const loggerOptions = (level: string, pathTokens: PathTokens) => ({
  level,
  redact: LOG_REDACT,
  serializers: { req: requestLogView(pathTokens), err: errorLogView },
});
