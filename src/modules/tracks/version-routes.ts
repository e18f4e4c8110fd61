import type { FastifyContextConfig, FastifyRequest, FastifySchema } from 'fastify';
import { principalOf } from '../../plugins/auth.ts';
import { VersionParams } from './versions/versions.schemas.ts';

/** An auth class of the tracks area as its routes spread it (`read`, `write`, `session`). */
type RouteAuth = { readonly config: FastifyContextConfig };

/** What a route of a version sub-resource declares itself; the params default to `{id, versionId}`. */
type VersionRouteSchema = Omit<FastifySchema, 'operationId'> & { summary: string; description?: string };

/** The schema a route gets: the given one with its operationId, and `{id, versionId}` params unless it names others. */
type Declared<S extends VersionRouteSchema> = Omit<S, 'params'> & {
  operationId: string;
  params: S extends { params: infer P } ? P : typeof VersionParams;
};

/**
 * The declaration shape of a sub-resource of a version (`stems`, `comments`, `todos`, `files`, ...): its
 * paths under `/api/v1/tracks/:id/versions/:versionId/<resource>`, and per route the auth class, the
 * operationId `tracks.versions.<resource>.<action>` and the `{id, versionId}` params unless others are given.
 */
export function versionRoutes(resource: string) {
  return {
    path: (suffix = '') => `/api/v1/tracks/:id/versions/:versionId/${resource}${suffix}`,
    options: <S extends VersionRouteSchema>(auth: RouteAuth, action: string, schema: S) => {
      const declared: FastifySchema = {
        operationId: `tracks.versions.${resource}.${action}`,
        params: VersionParams,
        ...schema,
      };
      return {
        config: auth.config,
        schema: declared as Declared<S>,
      };
    },
  };
}

/** An auth class on an endpoint added beyond the interface specification (`x-extension` in OpenAPI). */
export function extension(auth: RouteAuth): RouteAuth {
  return { config: { ...auth.config, extension: true } };
}

/** The caller, the track id and the version id: the first arguments of every version sub-resource call. */
export function versionArgs(request: FastifyRequest & { params: { id: number; versionId: number } }) {
  return [principalOf(request), request.params.id, request.params.versionId] as const;
}
