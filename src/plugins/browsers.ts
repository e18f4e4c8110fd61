import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { CorsSettings } from './web.config.ts';

/** Response headers a browser app may read on a cross-origin answer. */
export const EXPOSED_HEADERS = [
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'Idempotent-Replayed',
  'ETag',
  'Location',
  'X-Request-Id',
  'traceparent',
  'WWW-Authenticate',
  'Allow',
  'Content-Disposition',
  // Resumable uploads (tus): where an upload stands, and what the server supports.
  'Upload-Offset',
  'Upload-Length',
  'Upload-Expires',
  'Tus-Resumable',
  'Tus-Version',
  'Tus-Extension',
  'Tus-Max-Size',
];

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Cross-origin access for the listed origins. Registered before the auth plugin on purpose: its catch-all
 * `OPTIONS *` route then carries no auth class, and its `onRequest` hook answers a preflight (which never
 * carries a token) before the auth hook runs, and puts the CORS headers on a 401 too.
 */
export async function registerCors(app: FastifyInstance, settings: CorsSettings | undefined): Promise<void> {
  if (!settings) return;
  await app.register(cors, {
    origin: settings.origins === '*' ? '*' : [...settings.origins],
    credentials: settings.credentials,
    methods: METHODS,
    // Left out: whatever request headers the page asks for (Authorization, Idempotency-Key, If-Match,
    // Last-Event-ID, traceparent, the Guest-Token of review links...) are allowed.
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: settings.maxAgeSeconds,
    strictPreflight: true,
  });
}

/**
 * Security headers for a JSON API on every answer: no sniffing, no referrer, no framing and a policy that
 * lets nothing load from an answer. The reference page at /docs sets its own policy (its scripts' hashes),
 * which wins over this one. Files (signed URLs, public covers) may be embedded by apps on other origins, so
 * the resource policy is cross-origin; HSTS only when the service is reached over HTTPS.
 */
export async function registerSecurityHeaders(app: FastifyInstance, publicUrl: string | undefined) {
  await app.register(fastifyHelmet, { global: true, ...securityHeaderOptions(publicUrl) });
}

function securityHeaderOptions(publicUrl: string | undefined) {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'none'"],
        'base-uri': ["'none'"],
        'form-action': ["'none'"],
        'frame-ancestors': ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    hsts: publicUrl?.startsWith('https://') ? { maxAge: 15_552_000, includeSubDomains: true } : false,
  } satisfies HelmetOptions;
}

/** Sets the same security headers on a raw answer, for requests the router stopped before any hook ran. */
export function securityHeadersFor(publicUrl: string | undefined) {
  const setHeaders = helmet(securityHeaderOptions(publicUrl));
  return (request: IncomingMessage, response: ServerResponse) => setHeaders(request, response, () => {});
}
