import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable } from '../shared/db-errors.ts';
import { AppError, type ErrorDetail, errors } from '../shared/errors.ts';
import type { AllowedMethods } from './allowed-methods.ts';
import { wwwAuthenticate } from './auth.ts';

type AjvError = {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
};

/** Maps ajv errors to `{path, message}` pointers into the request (`/body/title`, `/query/limit`). */
export function validationDetails(context: string, list: readonly AjvError[]): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const e of list) {
    let path = `/${context}${e.instancePath}`;
    let message = e.message ?? 'is not valid';
    if (e.keyword === 'additionalProperties') {
      path += `/${String(e.params.additionalProperty)}`;
      message = 'is not an accepted field';
    } else if (e.keyword === 'required') {
      path += `/${String(e.params.missingProperty)}`;
      message = 'is required';
    } else if (e.keyword === 'enum') {
      message = `must be one of: ${(e.params.allowedValues as unknown[]).join(', ')}`;
    }
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ path, message });
  }
  return details;
}

/** Fastify names the query string `querystring`; error pointers call it `query`, like the OpenAPI `in`. */
const requestPart = (context: string | undefined) =>
  context === undefined ? 'body' : context === 'querystring' ? 'query' : context;

/** Translates any thrown error into the one envelope of the contract. */
export function toAppError(error: FastifyError | Error): AppError {
  if (error instanceof AppError) return error;
  const e = error as FastifyError & { validationContext?: string };
  if (e.validation)
    return errors.validation(validationDetails(requestPart(e.validationContext), e.validation as AjvError[]));
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedMediaType();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.invalidJson('The request body is empty but its content type is application/json');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return errors.invalidJson();
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errors.badRequest('bad_request', 'Content-Length does not match the body');
  }
  if (error instanceof SyntaxError && e.statusCode === 400) return errors.invalidJson();
  if (isDatabaseUnavailable(error)) return errors.unavailable();
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError(e.statusCode, 'bad_request', 'The request could not be understood');
  }
  return errors.internal();
}

/** Writes an AppError as the contract's body; 401 is exactly `{"error":"Unauthorized"}`. */
export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  if (error.statusCode === 401) reply.header('www-authenticate', wwwAuthenticate(reply.request));
  const body =
    error.statusCode === 401
      ? { error: 'Unauthorized' }
      : error.statusCode >= 500 && error.statusCode !== 503
        ? { error: error.message, code: error.code, requestId: reply.request.id }
        : { error: error.message, code: error.code, ...(error.details ? { details: error.details } : {}) };
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send(body);
}

/**
 * One renderer for every error, and JSON answers for unknown routes (401 first when unauthenticated): a
 * known path asked with a method it does not have is 405 with `Allow`.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance, { allowedMethods }: { allowedMethods: AllowedMethods }) => {
    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const appError = toAppError(error);
      if (appError.statusCode >= 500) {
        request.log.error(
          { err: error },
          appError.statusCode === 503 ? 'database unavailable' : 'request failed',
        );
      }
      return sendError(reply, appError);
    });

    app.setNotFoundHandler(async (request, reply) => {
      await app.authenticateRequest(request, reply);
      const allowed = allowedMethods.of(request.url);
      if (allowed.length > 0 && !allowed.includes(request.method as (typeof allowed)[number]))
        return sendError(reply, errors.methodNotAllowed(request.method, allowed));
      return sendError(reply, errors.routeNotFound(request.method, request.url));
    });
  },
  { name: 'errors', dependencies: ['auth'] },
);
