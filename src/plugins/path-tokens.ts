import type { RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The path parameter that is this route's capability (the token of a signed link, invite or feed):
     * whoever reads it can use it, so logs show it as [redacted].
     */
    pathToken?: string;
  }
}

const PARAM = /:([A-Za-z_][A-Za-z0-9_]*)/g;
const LOOKS_LIKE_TOKEN = /token|secret|signature/i;
const REDACTED = '[redacted]';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A route path as a pattern over raw request paths, the capability parameter captured as `token`. */
function pathPattern(path: string, token: string): RegExp {
  let source = '';
  let last = 0;
  for (const m of path.matchAll(PARAM)) {
    source += escapeRegExp(path.slice(last, m.index));
    source += m[1] === token ? '(?<token>[^/?#]+?)' : '[^/?#]+?';
    last = m.index + m[0].length;
  }
  source += escapeRegExp(path.slice(last));
  // Linear: literal text and runs of a class without `/`, each run ended by a `/` or the end of the path.
  return new RegExp(`^${source}/?(?=[?#]|$)`, 'd');
}

/**
 * The paths whose routes carry a capability token (`config.pathToken`), collected as the routes are
 * declared, so the request log hides the token of every such path whatever method or outcome it had.
 */
export class PathTokens {
  readonly #patterns = new Map<string, RegExp>();
  readonly #routes: { method: string; url: string }[] = [];

  /** Takes a route's declaration; a path parameter named like a token must be declared `pathToken`. */
  add(route: Pick<RouteOptions, 'method' | 'url' | 'config'>): void {
    const token = route.config?.pathToken;
    const params = [...route.url.matchAll(PARAM)].map((m) => m[1]!);
    for (const name of params) {
      if (LOOKS_LIKE_TOKEN.test(name) && name !== token) {
        throw new Error(
          `Route ${route.method} ${route.url}: :${name} looks like a capability; declare config.pathToken`,
        );
      }
    }
    if (token === undefined) return;
    if (!params.includes(token)) {
      throw new Error(`Route ${route.method} ${route.url}: config.pathToken names no path parameter`);
    }
    if (!this.#patterns.has(route.url)) this.#patterns.set(route.url, pathPattern(route.url, token));
    for (const method of ([] as string[]).concat(route.method)) this.#routes.push({ method, url: route.url });
  }

  /** The routes that carry a token in their path, as declared (`POST /api/v1/invites/:token/accept`). */
  routes(): readonly { method: string; url: string }[] {
    return this.#routes;
  }

  /** The URL with the token of a token path replaced by [redacted]; any other URL as it is. */
  redact(url: string): string {
    for (const pattern of this.#patterns.values()) {
      const at = pattern.exec(url)?.indices?.groups?.token;
      if (at) return `${url.slice(0, at[0])}${REDACTED}${url.slice(at[1])}`;
    }
    return url;
  }
}
