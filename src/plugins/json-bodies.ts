import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AppError, errors } from '../shared/errors.ts';

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/**
 * Why a JSON body cannot be read as it was sent: compressed, declared in another character set, or not
 * UTF-8 (decoding would put replacement characters in place of the bytes, and store them).
 */
function unreadable(request: FastifyRequest, body: Buffer): AppError | undefined {
  const coding = request.headers['content-encoding']?.trim().toLowerCase();
  if (coding && coding !== 'identity')
    return errors.unsupportedMediaType(
      `Request bodies are read as sent: Content-Encoding ${coding} is not accepted`,
    );
  const charset = CHARSET.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
    return errors.unsupportedMediaType(`JSON bodies are UTF-8: charset ${charset} is not accepted`);
  if (!isUtf8(body)) return errors.invalidJson('The request body is not valid UTF-8');
  return undefined;
}

/**
 * The JSON body parser of `scope`: UTF-8 JSON as sent (no `__proto__` or `constructor.prototype` keys).
 * An empty body is an error, or `emptyBody` when given.
 */
export function parseJsonBodies(scope: FastifyInstance, options: { emptyBody?: object } = {}): void {
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    const problem = unreadable(request, bytes);
    if (problem) return done(problem, undefined);
    if (bytes.length === 0 && options.emptyBody) return done(null, options.emptyBody);
    return parseJson(request, bytes.toString('utf8'), done);
  });
}
