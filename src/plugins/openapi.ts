import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorResponse, errorResponse } from '../shared/schemas.ts';
import { type AuthClass, auth, DOCS_PREFIX, SECURITY_SCHEMES } from './auth.ts';
import { documentIdempotency } from './idempotency/openapi.ts';
import { hoistNamedSchemas } from './openapi/named-schemas.ts';

/**
 * One documented operation of the app, as the security matrix and the contract tests walk them: `path` is
 * the documented path (`/api/v1/tracks/{id}`, never with the optional trailing slash), `url` the route's own.
 */
export type RouteEntry = { method: string; path: string; url: string; operationId: string; auth: AuthClass };

/** The documented form of a route's URL: `{param}` placeholders, and no trailing slash (it is optional). */
export function documentedPath(url: string): string {
  const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
  interface FastifyContextConfig {
    /** Marks an endpoint added beyond the interface specification (`x-extension: true` in OpenAPI). */
    extension?: boolean;
  }
}

type OpenApiDocument = {
  paths?: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: Record<string, unknown> } & Record<string, unknown>;
  webhooks?: Record<string, unknown>;
};

/** What the API sends rather than serves: OpenAPI 3.1 `webhooks`, and the component schemas they name. */
export type OutgoingWebhooks = { webhooks: Record<string, unknown>; schemas: Record<string, unknown> };

const API_PREFIX = '/api/v1/';

/** The error answers every route documents (by its auth class, and whether it takes a body). */
const ERROR_RESPONSES = {
  400: errorResponse('Invalid request (validation_failed, invalid_json)'),
  401: errorResponse('Missing or invalid bearer token: exactly {"error":"Unauthorized"}'),
  403: errorResponse('session_required, insufficient_scope or forbidden'),
  404: errorResponse('Not found, or owned by a team the caller does not belong to'),
  413: errorResponse('The body is over the size limit (payload_too_large)'),
  415: errorResponse(
    'Not UTF-8 JSON sent as it is: another content type, charset or content coding (unsupported_media_type)',
  ),
  429: errorResponse('Rate limited (rate_limited, with Retry-After)'),
  500: errorResponse('Unexpected failure (internal_error, with requestId)'),
  503: errorResponse('Database unavailable (unavailable)'),
};

function errorResponses(route: RouteOptions): Record<string, unknown> {
  const codes: (keyof typeof ERROR_RESPONSES)[] = [400, 500, 503];
  if (route.schema?.body) codes.push(413, 415);
  const cls = route.config?.auth;
  if (cls && cls.kind !== 'anonymous') codes.push(401, 403, 404, 429);
  return Object.fromEntries(codes.map((code) => [code, ERROR_RESPONSES[code]]));
}

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
      serverUrl,
      webhooks,
    }: { version: string; serverUrl: string; webhooks?: OutgoingWebhooks | undefined },
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
        ? route.url.slice(API_PREFIX.length).split('/')[0]
        : undefined;
      route.schema = {
        ...route.schema,
        tags: route.schema?.tags ?? (area ? [area] : []),
        response: byStatusCode({ ...errorResponses(route), ...(route.schema?.response as object) }),
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
            'Every path also answers with a trailing slash.',
          license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        },
        servers: [{ url: serverUrl, description: 'This deployment (PUBLIC_URL)' }],
        components: { securitySchemes: SECURITY_SCHEMES },
      },
      refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
      transformObject: (documentObject) =>
        'openapiObject' in documentObject
          ? hoistNamedSchemas(
              withWebhooks(
                markExtensions(
                  documentIdempotency(
                    withoutTrailingSlashes(documentObject.openapiObject as OpenApiDocument),
                  ),
                  extensions,
                ),
                webhooks,
              ),
              ['paths', 'webhooks'],
            )
          : documentObject.swaggerObject,
    });

    app.get('/api/v1/openapi.json', { config: { auth: auth.anonymous }, schema: { hide: true } }, async () =>
      app.swagger(),
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
    });
  },
  { name: 'openapi', dependencies: ['auth'] },
);

function withoutTrailingSlashes(document: OpenApiDocument): OpenApiDocument {
  const paths: NonNullable<OpenApiDocument['paths']> = {};
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    const documented = documentedPath(path);
    paths[documented] = { ...paths[documented], ...operations };
  }
  return { ...document, paths };
}

function markExtensions(document: OpenApiDocument, extensions: Set<string>): OpenApiDocument {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      if (extensions.has(operation.operationId as string)) operation['x-extension'] = true;
    }
  }
  return document;
}

function withWebhooks(document: OpenApiDocument, outgoing: OutgoingWebhooks | undefined): OpenApiDocument {
  if (!outgoing) return document;
  const components = document.components ?? {};
  return {
    ...document,
    webhooks: outgoing.webhooks,
    components: { ...components, schemas: { ...components.schemas, ...outgoing.schemas } },
  };
}
