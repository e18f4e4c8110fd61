import type { RouteOptions } from 'fastify';
// Fastify's own router (a dependency of fastify): the same matching, so a path matches here when it
// would match there.
import FindMyWay, { type HTTPMethod } from 'find-my-way';

const METHODS: readonly HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const noop = () => undefined;

/**
 * The methods each route path answers, collected as routes are declared, so a request with a method its
 * path does not have can be answered 405 with `Allow` instead of 404.
 */
export class AllowedMethods {
  readonly #router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 256 });

  constructor(private readonly methods: readonly HTTPMethod[] = METHODS) {}

  add(route: Pick<RouteOptions, 'method' | 'url'>): void {
    // A catch-all (the CORS plugin's `OPTIONS *`) would make every path look known.
    if (route.url === '*') return;
    for (const method of [route.method].flat() as HTTPMethod[]) {
      if (!this.#router.hasRoute(method, route.url)) this.#router.on(method, route.url, noop);
    }
  }

  /** The methods the path of `url` answers; empty when no route has that path. */
  of(url: string): HTTPMethod[] {
    const path = url.split('?', 1)[0]!;
    return this.methods.filter((method) => this.#router.find(method, path) !== null);
  }
}
