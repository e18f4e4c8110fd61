import type { FastifyRequest } from 'fastify';
import { errorLogView } from './error-log.ts';

/** Fields pino hides wherever they appear in a log line. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  '*.password',
  '*.refresh_token',
  '*.access_token',
  '*.token',
  '*.secret',
];

const SIGNED_QUERY = /([?&](?:token|x-amz-signature|x-amz-credential|x-amz-security-token)=)[^&#]*/gi;
const INVITE_PATH = /(\/invites\/)[^/?#]+/i;

/**
 * A URL as it may be logged: the signature of a signed URL and the token of an invite are credentials
 * (whoever reads them can download the file or join the team), so they are replaced.
 */
export function redactUrl(url: string): string {
  return url.replace(SIGNED_QUERY, '$1[redacted]').replace(INVITE_PATH, '$1[redacted]');
}

/** The request part of a log line: Fastify's own fields, with the URL redacted. */
export function requestLogView(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Logger options of the service at `level`. */
export const loggerOptions = (level: string) => ({
  level,
  redact: LOG_REDACT,
  serializers: { req: requestLogView, err: errorLogView },
});
