import createClient, { type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.ts';

export type { components, operations, paths } from './schema.ts';

/**
 * A typed client of the API: paths, parameters, bodies and answers are checked against the OpenAPI
 * document the types were generated from (`npm run client`). Pass `baseUrl` (the origin) and, for
 * signed-in calls, `headers: { authorization: 'Bearer …' }`.
 */
export function createApiClient(options: ClientOptions) {
  return createClient<paths>(options);
}

export type ApiClient = ReturnType<typeof createApiClient>;
