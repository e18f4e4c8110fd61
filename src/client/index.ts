import type { Client, ClientOptions, Middleware } from 'openapi-fetch';
import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';

export { type Answer, ApiError, type ErrorBody, unwrap } from './errors.ts';
export {
  idempotencyKey,
  type Page,
  pages,
  type RetryOptions,
  retry,
  type UploadTicket,
  upload,
} from './helpers.ts';
export type { components, operations, paths } from './schema.ts';

/** A bearer token (a session's access token or a team API key), or a function that answers the current one. */
export type TokenSource = string | (() => string | undefined | Promise<string | undefined>);

export type ApiClientOptions = ClientOptions & {
  /** Sent as `Authorization: Bearer <token>` on every call that does not set its own. */
  token?: TokenSource;
};

/** The client: `GET`, `POST`, `PATCH`, `PUT`, `DELETE` typed by the API's paths. */
export type ApiClient = Client<paths>;

/**
 * A typed client of the API: paths, parameters, bodies and answers are checked against the OpenAPI
 * document the types were generated from (`npm run client`). Pass `baseUrl` (the origin) and, for
 * signed-in calls, `token`.
 */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const { token, ...clientOptions } = options;
  const client = createClient<paths>(clientOptions);
  if (token !== undefined) client.use(bearer(token));
  return client;
}

function bearer(token: TokenSource): Middleware {
  return {
    async onRequest({ request }) {
      if (request.headers.has('authorization')) return undefined;
      const value = typeof token === 'function' ? await token() : token;
      if (value) request.headers.set('authorization', `Bearer ${value}`);
      return request;
    },
  };
}
