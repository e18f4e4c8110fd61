import { type Static, Type } from '@sinclair/typebox';

/** Browser apps on other origins (CORS), the operator's metrics endpoint, and signed-in users' budget. */
export const WebEnv = Type.Object({
  CORS_ORIGINS: Type.Optional(Type.String({ maxLength: 8192 })),
  CORS_CREDENTIALS: Type.Boolean({ default: false }),
  CORS_MAX_AGE_SECONDS: Type.Integer({ minimum: 0, maximum: 86_400, default: 600 }),
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65_535 })),
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  SESSION_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1200 }),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  OTEL_SERVICE_NAME: Type.String({ minLength: 1, maxLength: 200, default: 'team-music-workspace' }),
});

type Env = Static<typeof WebEnv>;

/** Cross-origin access: the origins allowed (`'*'` for any), none when CORS is off. */
export type CorsSettings = Readonly<{
  origins: readonly string[] | '*';
  credentials: boolean;
  maxAgeSeconds: number;
}>;

export type MetricsSettings = Readonly<{ port: number | undefined; token: string | undefined }>;

/** OpenTelemetry spans of requests, sent over OTLP/HTTP to `endpoint` (`/v1/traces` is appended). */
export type TracingSettings = Readonly<{ endpoint: string; serviceName: string }>;

export type WebSettings = Readonly<{
  cors: CorsSettings | undefined;
  metrics: MetricsSettings;
  sessionRequestsPerMinute: number;
  tracing: TracingSettings | undefined;
}>;

/** An origin exactly as browsers send it in `Origin`: scheme, host and port only, no path. */
function asOrigin(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin === text ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The CORS, metrics and session-budget settings, and a message for every value that cannot be used. */
export function webSettings(env: Env): { value: WebSettings; problems: string[] } {
  const problems: string[] = [];
  const listed = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  let cors: CorsSettings | undefined;
  if (listed.includes('*')) {
    if (listed.length > 1)
      problems.push('CORS_ORIGINS: * allows every origin; give it alone or list origins');
    // A browser refuses credentials with `*`; reflecting any origin instead would open them to every site.
    if (env.CORS_CREDENTIALS)
      problems.push('CORS_ORIGINS: * cannot be combined with CORS_CREDENTIALS=true; list the origins');
    cors = { origins: '*', credentials: env.CORS_CREDENTIALS, maxAgeSeconds: env.CORS_MAX_AGE_SECONDS };
  } else if (listed.length > 0) {
    for (const origin of listed)
      if (!asOrigin(origin))
        problems.push(
          `CORS_ORIGINS: ${JSON.stringify(origin.slice(0, 200))} is not an origin (scheme://host[:port], no path or trailing slash)`,
        );
    cors = {
      origins: Object.freeze([...new Set(listed)]),
      credentials: env.CORS_CREDENTIALS,
      maxAgeSeconds: env.CORS_MAX_AGE_SECONDS,
    };
  }
  return {
    value: Object.freeze({
      cors: cors && Object.freeze(cors),
      metrics: Object.freeze({ port: env.METRICS_PORT, token: env.METRICS_TOKEN }),
      sessionRequestsPerMinute: env.SESSION_RATE_LIMIT_PER_MINUTE,
      tracing: env.OTEL_EXPORTER_OTLP_ENDPOINT
        ? Object.freeze({ endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: env.OTEL_SERVICE_NAME })
        : undefined,
    }),
    problems,
  };
}
