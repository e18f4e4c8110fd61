import type { FastifyRequest } from 'fastify';
import type { App } from '../../app-types.ts';
import { parseJsonBodies } from '../../plugins/json-bodies.ts';

/**
 * For body-less actions (POST with nothing to send): within `scope`, a missing body, or an empty one sent
 * with a JSON content type, reaches validation as `{}`; any other body is parsed and validated as usual.
 */
export function acceptEmptyJsonBody(scope: App): void {
  parseJsonBodies(scope, { emptyBody: {} });
  scope.addHook('preValidation', async (request) => {
    request.body ??= {};
  });
}

/**
 * Route options of a body whose fields are all optional, outside such a scope: a request without a body
 * (and without a content type) reaches validation as `{}`.
 */
export const bodyMayBeLeftOut = {
  preValidation: async (request: FastifyRequest) => {
    request.body ??= {};
  },
};
