import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../shared/errors.ts';
import { hooksOf } from './route-hooks.ts';

export const SCOPES = [
  'tracks:write',
  'albums:write',
  'contacts:write',
  'financials:write',
  'webhooks:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * Who may call a route. Every route declares one in `config.auth`:
 * - anonymous: no token;
 * - session (S): a session token only; an API key gets 403 session_required;
 * - keyOrSession (B): a session or a team API key; with a key, a write needs `scope`;
 * - anyToken (N): any valid token, no scope.
 */
export type AuthClass =
  | { kind: 'anonymous' }
  | { kind: 'session' }
  | { kind: 'keyOrSession'; scope?: Scope }
  | { kind: 'anyToken' };

export const auth = {
  anonymous: { kind: 'anonymous' } as AuthClass,
  session: { kind: 'session' } as AuthClass,
  keyOrSession: (scope?: Scope): AuthClass =>
    scope ? { kind: 'keyOrSession', scope } : { kind: 'keyOrSession' },
  anyToken: { kind: 'anyToken' } as AuthClass,
};

/**
 * The verified caller of a request. A principal whose token is verified but whose session or key has not
 * been looked up in the database for this request carries `unconfirmed` (see `deferSessionCheck`).
 */
export type Principal =
  | {
      type: 'session';
      userId: string;
      sessionId: string;
      unconfirmed?: boolean;
      /** When an unconfirmed session's token was verified: the time its session is tested at. */
      verifiedAt?: Date;
    }
  | {
      type: 'key';
      teamId: number;
      keyId: number;
      unconfirmed?: boolean;
      scopes: readonly Scope[];
      requestsPerMinute: number;
      /** Set on requests to routes that need a write scope: what they touch must belong to the key's team. */
      writing?: boolean;
    };

/**
 * Turns a bearer token into a principal, or null when the token is not valid (for any reason). With
 * `deferSession`, a session token's signature is verified but its session is left for the route to look up,
 * and a key seen lately is taken from memory with its revocation left to the route (the principal is then
 * `unconfirmed`).
 */
export type Authenticate = (token: string, options?: { deferSession?: boolean }) => Promise<Principal | null>;

/** Whether the session or key of a principal is still active (not logged out, revoked, expired or deleted). */
export type PrincipalIsActive = (principal: Principal) => Promise<boolean>;

export type SessionPrincipal = Extract<Principal, { type: 'session' }>;

/** Runs after authentication on every authenticated request (rate limits, usage stamps). */
export type AfterAuthenticate = (
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
) => Promise<void> | void;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthClass;
    /**
     * A read that looks the session (or key) up in its own statement, beside the data it reads (one
     * database round trip): the hook verifies the token only, the route confirms the caller once its
     * statement has found them active (`confirmedRead`), and a response sent without that confirmation is
     * checked before it leaves (401 when the session has ended or the key was revoked). GET routes only.
     */
    deferSessionCheck?: boolean;
    /**
     * An event stream that also opens with `?ticket=` (a single-use ticket of this stream kind) when the
     * request carries no Authorization header: browsers' EventSource cannot send one.
     */
    streamTicket?: string;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export const DOCS_PREFIX = '/docs';

const BEARER = /^Bearer[ ]+([\x21-\x7e]{1,4096})$/i;

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  return BEARER.exec(header)?.[1] ?? null;
}

/**
 * The `WWW-Authenticate` of a 401 (RFC 6750): the scheme, and `invalid_token` when the request carried a
 * bearer token that did not do (expired, revoked, unknown, malformed).
 */
export function wwwAuthenticate(request: FastifyRequest): string {
  return request.headers.authorization === undefined ? 'Bearer' : 'Bearer error="invalid_token"';
}

/**
 * What a read's own statement found, once that statement also found the caller's session or key active:
 * `notFound` when there is no row, 401 when the session has ended or the key was revoked.
 */
export function confirmedRead<T extends { callerActive: boolean }>(
  principal: Principal,
  row: T | undefined,
  notFound: () => Error,
): Omit<T, 'callerActive'> {
  if (!row) throw notFound();
  confirmCaller(principal, row.callerActive);
  const { callerActive: _, ...found } = row;
  return found;
}

/** Records what a read's own statement found of the caller: 401 when the session ended or the key was revoked. */
export function confirmCaller(principal: Principal, callerActive: boolean): void {
  if (!callerActive) throw errors.unauthorized();
  principal.unconfirmed = false;
}

/** The principal of an authenticated route; routes with an auth class other than anonymous always have one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw errors.unauthorized();
  return request.principal;
}

/** The session a stream ticket stands for (using it up), or null when it opens nothing. */
export type RedeemTicket = (ticket: string, stream: string) => Promise<Principal | null>;

type AuthPluginOptions = {
  authenticate: Authenticate;
  principalIsActive: PrincipalIsActive;
  afterAuthenticate?: AfterAuthenticate | undefined;
  redeemTicket?: RedeemTicket | undefined;
};

/** The `ticket` query parameter of a request that has no Authorization header, if it has one. */
function ticketOf(request: FastifyRequest): string | undefined {
  if (request.headers.authorization !== undefined) return undefined;
  const ticket = (request.query as Record<string, unknown> | undefined)?.ticket;
  return typeof ticket === 'string' ? ticket : undefined;
}

const UNAUTHORIZED_BODY = JSON.stringify({ error: 'Unauthorized' });

/** Enforces each route's auth class before any parsing or validation, and stamps it into OpenAPI. */
export const authPlugin = fp<AuthPluginOptions>(
  async (app: FastifyInstance, { authenticate, principalIsActive, afterAuthenticate, redeemTicket }) => {
    app.decorateRequest('principal', null);

    app.addHook('onRoute', (route: RouteOptions) => {
      // The reference page's own routes (HTML, assets) come from a library and are public like the document.
      if (!route.config?.auth && route.url.startsWith(DOCS_PREFIX))
        route.config = { ...route.config, auth: auth.anonymous };
      const cls = route.config?.auth;
      if (!cls) throw new Error(`Route ${route.method} ${route.url} declares no auth class (config.auth)`);
      if (route.config?.deferSessionCheck && [route.method].flat().some((m) => m !== 'GET' && m !== 'HEAD'))
        throw new Error(`Route ${route.method} ${route.url}: only reads may defer the session check`);
      route.schema = { ...route.schema, ...openApiSecurity(cls) };
      if (route.config?.deferSessionCheck) route.onSend = [...hooksOf(route.onSend), confirmBeforeSending];
    });

    app.addHook('onRequest', async (request, reply) => {
      const cls = request.routeOptions.config.auth;
      if (!cls || cls.kind === 'anonymous') return;
      const stream = request.routeOptions.config.streamTicket;
      const ticket = stream && redeemTicket ? ticketOf(request) : undefined;
      const principal =
        stream && ticket !== undefined
          ? await authenticateTicket(request, reply, ticket, stream)
          : await authenticateRequest(request, reply, request.routeOptions.config.deferSessionCheck);
      if (cls.kind === 'session' && principal.type === 'key') throw errors.sessionRequired();
      if (cls.kind === 'keyOrSession' && cls.scope && principal.type === 'key') {
        if (!principal.scopes.includes(cls.scope)) throw errors.insufficientScope(cls.scope);
        request.principal = { ...principal, writing: true };
      }
    });

    // Nothing leaves for a session or key nobody looked up: an unconfirmed one (only routes that defer the
    // check have them) is checked here, and an ended one turns whatever the route answered into the 401 it
    // would have had.
    async function confirmBeforeSending(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
      const principal = request.principal;
      if (!principal?.unconfirmed) return payload;
      if (await principalIsActive(principal)) {
        principal.unconfirmed = false;
        return payload;
      }
      reply
        .code(401)
        .header('content-type', 'application/json; charset=utf-8')
        .header('www-authenticate', wwwAuthenticate(request));
      return UNAUTHORIZED_BODY;
    }

    /** Verifies the bearer token and records the principal; 401 when there is none or it is not valid. */
    async function authenticateRequest(
      request: FastifyRequest,
      reply: FastifyReply,
      deferSession = false,
    ): Promise<Principal> {
      const token = bearerToken(request);
      const principal = token ? await authenticate(token, { deferSession }) : null;
      if (!principal) throw errors.unauthorized();
      request.principal = principal;
      if (afterAuthenticate) await afterAuthenticate(request, reply, principal);
      return principal;
    }

    /** A stream ticket in place of the bearer token: 401 when it opens nothing. */
    async function authenticateTicket(
      request: FastifyRequest,
      reply: FastifyReply,
      ticket: string,
      stream: string,
    ): Promise<Principal> {
      const principal = await redeemTicket!(ticket, stream);
      if (!principal) throw errors.unauthorized();
      request.principal = principal;
      if (afterAuthenticate) await afterAuthenticate(request, reply, principal);
      return principal;
    }

    app.decorate('authenticateRequest', authenticateRequest);
  },
  { name: 'auth' },
);

declare module 'fastify' {
  interface FastifyInstance {
    authenticateRequest(request: FastifyRequest, reply: FastifyReply): Promise<Principal>;
  }
}

export const SECURITY_SCHEMES = {
  session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Session access token' },
  teamApiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'tmw_live_…',
    description: 'Team API key; writes need the scope listed on the operation',
  },
} as const;

function openApiSecurity(cls: AuthClass): { security: Record<string, string[]>[] } {
  switch (cls.kind) {
    case 'anonymous':
      return { security: [] };
    case 'session':
      return { security: [{ session: [] }] };
    case 'keyOrSession':
      return { security: [{ session: [] }, { teamApiKey: cls.scope ? [cls.scope] : [] }] };
    case 'anyToken':
      return { security: [{ session: [] }, { teamApiKey: [] }] };
  }
}
