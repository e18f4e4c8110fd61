import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { PathTokens } from './plugins/path-tokens.ts';
import type { Services } from './services.ts';
import type { Clock } from './shared/clock.ts';
import type { Secrets } from './shared/secrets.ts';

/** What the application is built from; everything outside the process is passed in. */
export type AppDeps = {
  config: Config;
  database: Database;
  clock: Clock;
  secrets: Secrets;
};

/** The Fastify instance the routes are registered on. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    services: Services;
    /** The route paths whose capability is a token in the path (logged as [redacted]). */
    pathTokens: PathTokens;
  }
}
