import { createHash } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorResponse } from '../shared/schemas.ts';
import { type AuthClass, auth, DOCS_PREFIX, SECURITY_SCHEMES } from './auth.ts';
import {
  documentedPath,
  finishDocument,
  type OpenApiDocument,
  type OutgoingWebhooks,
} from './openapi/document.ts';

export { documentedPath, type OutgoingWebhooks };

import { genericErrorResponses } from './openapi/error-responses.ts';

/**
 * One documented operation of the app, as the security matrix and the contract tests walk them: `path` is
 * the documented path (`/api/v1/tracks/{id}`, never with the optional trailing slash), `url` the route's own.
 */
export type RouteEntry = { method: string; path: string; url: string; operationId: string; auth: AuthClass };

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
  interface FastifyContextConfig {
    /** Marks an endpoint added beyond the interface specification (`x-extension: true` in OpenAPI). */
    extension?: boolean;
  }
}

const API_PREFIX = '/api/v1/';

/**
 * The same entries in an object V8 keeps as a dictionary. Keys that are status codes are array indices: an
 * object given them one by one (a spread, a loop) gets a flat backing store up to the largest, 4 KB for a
 * 503, in every route's schema. An index far beyond any status code, set and deleted first, makes V8 keep
 * the object's indices in a dictionary from then on (about 300 bytes).
 */
function byStatusCode<T>(responses: Record<string, T>): Record<string, T> {
  const map: Record<string, T> = {};
  map[1_000_000] = undefined as T;
  delete map[1_000_000];
  for (const [status, response] of Object.entries(responses)) map[status] = response;
  return map;
}

/** Collects the OpenAPI 3.1 document from the route schemas; serves it and an offline reference page. */
export const openApiPlugin = fp(
  async (
    app: FastifyInstance,
    {
      version,
      license,
      serverUrl,
      webhooks,
    }: { version: string; license: string; serverUrl: string; webhooks?: OutgoingWebhooks | undefined },
  ) => {
    const extensions = new Set<string>();
    const routeTable: RouteEntry[] = [];
    app.decorate('routeTable', routeTable);
    app.addSchema(ErrorResponse);

    app.addHook('onRoute', (route: RouteOptions) => {
      if (route.schema?.hide) return;
      const operationId = route.schema?.operationId as string | undefined;
      if (!operationId) throw new Error(`Route ${route.method} ${route.url} has no schema.operationId`);
      if (route.config?.extension) extensions.add(operationId);
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        routeTable.push({
          method,
          path: documentedPath(route.url),
          url: route.url,
          operationId,
          auth: route.config!.auth!,
        });
      }
      const area = route.url.startsWith(API_PREFIX)
        ? route.url.slice(API_PREFIX.length).split('/')[0]!
        : 'health';
      route.schema = {
        ...route.schema,
        tags: route.schema?.tags ?? [area],
        response: byStatusCode({ ...genericErrorResponses(route), ...(route.schema?.response as object) }),
      };
    });

    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Team Music Workspace API',
          version,
          description:
            'Multi-tenant backend for music teams. Errors are `{error, code, details?}`; lists are `{items, nextCursor}`; ' +
            'operations marked `x-extension` go beyond the interface specification. ' +
            'Every path also answers with a trailing slash. Text in a request never holds NUL (U+0000) or half a ' +
            'surrogate pair, and bodies nest at most 32 levels: such input is refused (400 validation_failed), as are ' +
            'fields a body does not list (`additionalProperties: false`).',
          license: { name: 'Proprietary', identifier: license },
          contact: { name: 'Team Music Workspace API', url: `${serverUrl}${DOCS_PREFIX}` },
        },
        servers: [{ url: serverUrl, description: 'This deployment (PUBLIC_URL)' }],
        components: { securitySchemes: SECURITY_SCHEMES },
      },
      refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
      transformObject: (documentObject) =>
        'openapiObject' in documentObject
          ? finishDocument(documentObject.openapiObject as OpenApiDocument, { extensions, webhooks })
          : documentObject.swaggerObject,
    });

    // The document is large (over a megabyte): it is written once, and a client that has it gets 304.
    let served: { body: string; etag: string } | undefined;
    const sendDocument = (request: FastifyRequest, reply: FastifyReply) => {
      if (!served) {
        const body = JSON.stringify(app.swagger());
        served = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
      }
      reply.header('etag', served.etag).header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === served.etag) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(served.body);
    };
    app.get(
      '/api/v1/openapi.json',
      { config: { auth: auth.anonymous }, schema: { hide: true } },
      async (request, reply) => sendDocument(request, reply),
    );

    await app.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      staticCSP: true,
      // The page sets inline styles from its script; hashes cannot allow those, so styles (only) may be inline.
      transformStaticCSP: (header: string) =>
        header
          .split(';')
          .map((directive) =>
            directive.trim().startsWith('style-src ') ? " style-src 'self' 'unsafe-inline'" : directive,
          )
          .join(';'),
      uiConfig: { deepLinking: true },
      // The reference page reads the same written-once document.
      uiHooks: {
        onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
          if (request.routeOptions.url === `${DOCS_PREFIX}/json`) return sendDocument(request, reply);
        },
      },
    });
  },
  { name: 'openapi', dependencies: ['auth'] },
);
