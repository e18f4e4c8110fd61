import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type Authenticate, bearerToken, wwwAuthenticate } from './auth.ts';

const FRAMEWORK_ERRORS: Record<string, { status: number; code: string; error: string }> = {
  FST_ERR_BAD_URL: {
    status: 400,
    code: 'bad_url',
    error: 'A part of the URL is not valid percent-encoded UTF-8',
  },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'uri_too_long', error: 'A part of the URL is too long' },
};

/**
 * Requests the router cannot place (a malformed or over-long path segment) answer in the contract's shape,
 * and like any other route they answer 401 first when the caller has no valid token.
 */
export function frameworkErrorsFor(
  authenticate: Authenticate,
  securityHeaders: (request: IncomingMessage, response: ServerResponse) => void,
) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = FRAMEWORK_ERRORS[error.code] ?? { status: 400, code: 'bad_request', error: 'Bad request' };
    // The router stopped before any hook ran: those that set the request id and the security headers included.
    reply.header('x-request-id', request.id);
    securityHeaders(request.raw, reply.raw);
    const token = bearerToken(request);
    const principal = token ? authenticate(token) : Promise.resolve(null);
    principal.then(
      (found) => {
        if (!found)
          reply
            .code(401)
            .header('www-authenticate', wwwAuthenticate(request))
            .send({ error: 'Unauthorized' });
        else reply.code(known.status).send({ error: known.error, code: known.code });
      },
      () => reply.code(503).send({ error: 'The service is unavailable', code: 'unavailable' }),
    );
  };
}

/** Malformed HTTP (bad framing, oversized headers): answered in the contract's shape, then the socket ends. */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The request line or headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive']
        : [400, 'bad_request', 'The request is not valid HTTP'];
  const body = JSON.stringify({ error: message, code });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(error);
}
