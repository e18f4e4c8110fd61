import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { MailEnv, type MailSettings, mailSettings } from './mail/mail.config.ts';
import {
  AppVersionEnv,
  type AppVersionSettings,
  appVersionSettings,
} from './modules/app-version/app-version.config.ts';
import { type FeatureFlags, FlagsEnv, parseFeatureFlags } from './modules/flags/flags.config.ts';
import { PushEnv, type PushSettings, pushSettings } from './modules/notifications/push/push.config.ts';
import { WalletEnv, type WalletSettings, walletSettings } from './modules/wallet/wallet.config.ts';
import { parseAllowedPrivateHosts } from './modules/webhooks/host-names.ts';
import { WebEnv, type WebSettings, webSettings } from './plugins/web.config.ts';
import { parseTrustProxy, type TrustProxy } from './shared/trust-proxy.ts';
import type { FileLimits } from './storage/limits.ts';
import {
  fileLimitsFromSettings,
  StorageEnv,
  type StorageSettings,
  storageSettingsProblems,
} from './storage/storage-config.ts';

const LogLevel = Type.Union(
  ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
);

/** Every setting the service reads, with its default. Names are the environment variable names. */
const EnvSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
  }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  EMBEDDED_DB_OPTIMIZE: Type.Boolean({ default: false }),
  LOG_LEVEL: Type.Union(LogLevel.anyOf, { default: 'info' }),
  BODY_LIMIT: Type.Integer({ minimum: 1024, default: 1_048_576 }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10_000 }),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  TOKEN_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  TOKEN_ISSUER: Type.String({ minLength: 1, default: 'team-music-workspace' }),
  TOKEN_AUDIENCE: Type.String({ minLength: 1, default: 'team-music-workspace-api' }),
  ACCESS_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 30, maximum: 86_400, default: 900 }),
  REFRESH_TOKEN_TTL_DAYS: Type.Integer({ minimum: 1, maximum: 365, default: 30 }),
  SIGNUP_ENABLED: Type.Boolean({ default: true }),
  PASSWORD_HASH_MEMORY_KIB: Type.Integer({ minimum: 64, maximum: 4_194_304, default: 19_456 }),
  PASSWORD_HASH_ITERATIONS: Type.Integer({ minimum: 1, maximum: 100, default: 2 }),
  LOGIN_MAX_FAILURES: Type.Integer({ minimum: 1, default: 5 }),
  LOGIN_FAILURE_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 900 }),
  TRUST_PROXY: Type.String({ minLength: 1, default: 'false' }),
  OIDC_ISSUER: Type.Optional(Type.String({ pattern: '^https?://' })),
  OIDC_JWKS_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  OIDC_AUDIENCE: Type.Optional(Type.String({ minLength: 1 })),
  API_KEY_PREFIX: Type.String({ pattern: '^[a-z][a-z0-9]{1,15}$', default: 'tmw' }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  REDIS_TIMEOUT_MS: Type.Integer({ minimum: 10, maximum: 60_000, default: 500 }),
  URL_SIGNING_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  TRACK_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  // At least a day: live streams promise 24 h of Last-Event-ID resumes from the log.
  EVENT_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  WEBHOOK_DELIVERY_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  JOBS_POLL_INTERVAL_MS: Type.Integer({ minimum: 10, maximum: 3_600_000, default: 5_000 }),
  AI_SEARCH_LLM_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  AI_SEARCH_LLM_MODEL: Type.Optional(Type.String({ minLength: 1 })),
  AI_SEARCH_LLM_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  AI_SEARCH_LLM_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 3000 }),
  TRANSCRIPTION_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  TRANSCRIPTION_MODEL: Type.Optional(Type.String({ minLength: 1 })),
  TRANSCRIPTION_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  TRANSCRIPTION_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 60_000 }),
  MUSIC_TOOLS_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 3_600_000, default: 300_000 }),
  MUSIC_TOOLS_MAX_MEMORY_MB: Type.Integer({ minimum: 64, maximum: 65_536, default: 1024 }),
  MUSIC_TOOLS_MAX_JOBS_PER_TEAM: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  MEDIA_JOBS_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 64, default: 1 }),
  FFMPEG_PATH: Type.Optional(Type.String({ minLength: 1 })),
  SEPARATION_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  SEPARATION_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  SEPARATION_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 3_600_000, default: 600_000 }),
  WEBHOOK_ALLOWED_PRIVATE_HOSTS: Type.Optional(Type.String()),
  CHAT_STREAM_HEARTBEAT_MS: Type.Integer({ minimum: 10, maximum: 3_600_000, default: 15_000 }),
  CHAT_STREAM_MAX_BUFFER_BYTES: Type.Integer({ minimum: 1024, maximum: 1_073_741_824, default: 1_048_576 }),
  ...StorageEnv.properties,
  ...AppVersionEnv.properties,
  ...FlagsEnv.properties,
  ...WalletEnv.properties,
  ...PushEnv.properties,
  ...MailEnv.properties,
  ...WebEnv.properties,
});

/** The name of every environment variable the service reads. */
export const SETTING_NAMES: readonly string[] = Object.freeze(Object.keys(EnvSchema.properties));

type Env = Static<typeof EnvSchema>;

export type Config = Readonly<{
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** Whether V8 optimizes the embedded database's engine (faster, about 80 MB more idle and an 800 MB peak). */
  embeddedDbOptimized: boolean;
  logLevel: string;
  bodyLimit: number;
  shutdownTimeoutMs: number;
  publicUrl: string | undefined;
  mail: MailSettings;
  /** Which reverse proxies' `X-Forwarded-For` is believed for the client address (Fastify `trustProxy`). */
  trustProxy: TrustProxy;
  secrets: Readonly<{ tokenSecret: string | undefined; urlSigningSecret: string | undefined }>;
  auth: Readonly<{
    issuer: string;
    audience: string;
    accessTokenTtlSeconds: number;
    refreshTokenTtlDays: number;
    signupEnabled: boolean;
    passwordHashing: Readonly<{ memoryKib: number; iterations: number }>;
    loginMaxFailures: number;
    loginFailureWindowSeconds: number;
    oidc: Readonly<{ issuer: string; jwksUrl: string; audience: string }> | undefined;
  }>;
  apiKeyPrefix: string;
  redisUrl: string | undefined;
  redisTimeoutMs: number;
  /** Days a soft-deleted track can be restored before it is purged with its files. */
  trackRetentionDays: number;
  /**
   * Days events stay in the log (at least 1: live streams resume from it for 24 h); an event a reader of the
   * log has not passed, or whose delivery attempts are still logged, stays longer.
   */
  eventRetentionDays: number;
  /** Days the log of webhook delivery attempts is kept; a pending attempt stays until it is settled. */
  webhookDeliveryRetentionDays: number;
  /**
   * How often job queues and readers of the event log look for work besides being woken by the database's
   * notices (a fallback for a notice lost with its connection).
   */
  jobsPollIntervalMs: number;
  /** AI search reads queries with this chat-completions model when set; the built-in parser otherwise. */
  aiSearchLlm:
    | Readonly<{ url: string; model: string; apiKey: string | undefined; timeoutMs: number }>
    | undefined;
  /** Voice notes are transcribed by this OpenAI-compatible `/v1/audio/transcriptions` endpoint when set. */
  transcription:
    | Readonly<{ url: string; model: string; apiKey: string | undefined; timeoutMs: number }>
    | undefined;
  /**
   * Music tools: limits of each FFmpeg or analysis process, the queued and running tool jobs a team may
   * hold, audio jobs a process runs at once (in their own pool), and the stem separation service when set.
   */
  musicTools: Readonly<{
    /** The FFmpeg binary every audio job runs (FFMPEG_PATH); the one bundled in the npm package when unset. */
    ffmpegPath: string | undefined;
    timeoutMs: number;
    maxMemoryBytes: number;
    maxJobsPerTeam: number;
    concurrency: number;
    separation: Readonly<{ url: string; apiKey: string | undefined; timeoutMs: number }> | undefined;
  }>;
  /** Private hosts or addresses webhooks may still be sent to (canonical form); everything else private is refused. */
  webhookAllowedPrivateHosts: readonly string[];
  /** Chat event streams: the heartbeat interval, and the unread bytes after which a client is dropped. */
  chatStream: Readonly<{ heartbeatMs: number; maxBufferBytes: number }>;
  /** `GET /app-version`: latest and minimum app versions per platform, and where to update. */
  appVersion: AppVersionSettings;
  /** `GET /flags`: each flag on, off, or on for members of teams on chosen plans. */
  featureFlags: FeatureFlags;
  /** Wallet passes: each platform's signing settings, undefined when it is not configured. */
  wallet: WalletSettings;
  /** Push providers: FCM (Android, web) and APNs (iOS), each undefined when it is not configured. */
  push: PushSettings;
  /** CORS for browser apps, where `/metrics` is served, and the per-user budget of signed-in requests. */
  web: WebSettings;
  storage: Readonly<{
    /** The storage variables as given (driver, S3 connection, TTLs, size limits). */
    settings: StorageSettings;
    limits: FileLimits;
    uploadUrlTtlSeconds: number;
    downloadUrlTtlSeconds: number;
    pendingUploadTtlSeconds: number;
    /** Open (issued, not yet registered) uploads a team may hold at once. */
    maxOpenUploadsPerTeam: number;
  }>;
  version: string;
  /** The SPDX licence expression of `package.json`, stated in the API document. */
  license: string;
}>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads a `.env` file (if present) beneath the real environment: real variables win. */
export function readDotEnv(path = '.env'): Record<string, string> {
  if (!existsSync(path)) return {};
  return parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;
}

type DescribedSchema = { type?: string; anyOf?: { const?: unknown }[] };

/**
 * The bad value as a problem may show it: only a number, a flag or a choice from a list. Any text may be a
 * secret (TOKEN_SECRET, an API key, a private key) or hold one (a password in DATABASE_URL or REDIS_URL),
 * so a text variable is named, never echoed.
 */
function shownValue(schema: DescribedSchema, value: unknown): string {
  const plain =
    schema.type === 'number' ||
    schema.type === 'integer' ||
    schema.type === 'boolean' ||
    Boolean(schema.anyOf?.length && schema.anyOf.every((option) => option.const !== undefined));
  return plain && value !== undefined ? ` (got ${JSON.stringify(value)})` : '';
}

function describe(schema: DescribedSchema, fallback: string): string {
  const options = schema.anyOf?.map((option) => option.const).filter((v) => v !== undefined);
  return options?.length ? `must be one of ${options.join(', ')}` : fallback;
}

function storageConfig(env: Env): Config['storage'] {
  const settings = Object.freeze(
    Object.fromEntries(Object.keys(StorageEnv.properties).map((name) => [name, env[name as keyof Env]])),
  ) as StorageSettings;
  return Object.freeze({
    settings,
    limits: fileLimitsFromSettings(settings),
    uploadUrlTtlSeconds: settings.UPLOAD_URL_TTL_SECONDS,
    downloadUrlTtlSeconds: settings.DOWNLOAD_URL_TTL_SECONDS,
    pendingUploadTtlSeconds: settings.PENDING_UPLOAD_TTL_SECONDS,
    maxOpenUploadsPerTeam: settings.MAX_OPEN_UPLOADS_PER_TEAM,
  });
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The version and licence `package.json` gives the service. */
function packageFacts(): { version: string; license: string } {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
    license: string;
  };
  return { version: pkg.version, license: pkg.license };
}

/** Parses and validates the whole environment once; throws ConfigError listing every bad value. */
export function loadConfig(
  source: Record<string, string | undefined> = { ...readDotEnv(), ...process.env },
): Config {
  const known = SETTING_NAMES;
  const raw: Record<string, unknown> = {};
  for (const key of known) {
    const value = source[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const withDefaults = Value.Default(EnvSchema, raw);
  const converted = Value.Convert(EnvSchema, withDefaults);
  const problems = [...Value.Errors(EnvSchema, converted)].map(
    (e) =>
      `${e.path.slice(1) || 'environment'}: ${describe(e.schema as DescribedSchema, e.message)}${shownValue(e.schema as DescribedSchema, e.value)}`,
  );
  if (problems.length > 0) throw new ConfigError(problems);
  const env = converted as Env;
  problems.push(...storageSettingsProblems(env));
  const webhookHosts = parseAllowedPrivateHosts(env.WEBHOOK_ALLOWED_PRIVATE_HOSTS);
  problems.push(...webhookHosts.problems);
  const [appVersion, featureFlags, wallet] = [
    appVersionSettings(env),
    parseFeatureFlags(env),
    walletSettings(env),
  ];
  problems.push(...appVersion.problems, ...featureFlags.problems, ...wallet.problems);
  const push = pushSettings(env);
  problems.push(...push.problems);
  const web = webSettings(env);
  problems.push(...web.problems);
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT)
    problems.push('METRICS_PORT: must differ from PORT (metrics get a listener of their own)');
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  if (typeof trustProxy === 'string') problems.push(`TRUST_PROXY: ${trustProxy}`);
  const oidcSet = [env.OIDC_ISSUER, env.OIDC_JWKS_URL, env.OIDC_AUDIENCE].filter(Boolean).length;
  if (oidcSet > 0 && oidcSet < 3) {
    problems.push(
      'OIDC_ISSUER, OIDC_JWKS_URL, OIDC_AUDIENCE: set all three to trust an external identity provider',
    );
    throw new ConfigError(problems);
  }
  if (env.NODE_ENV !== 'test' && (env.PASSWORD_HASH_MEMORY_KIB < 19_456 || env.PASSWORD_HASH_ITERATIONS < 2))
    problems.push(
      'PASSWORD_HASH_MEMORY_KIB, PASSWORD_HASH_ITERATIONS: at least 19456 and 2 (the OWASP minimum); lower costs are for tests only',
    );
  if (env.AI_SEARCH_LLM_URL && !env.AI_SEARCH_LLM_MODEL)
    problems.push(
      'AI_SEARCH_LLM_MODEL: required with AI_SEARCH_LLM_URL (the model name the endpoint serves)',
    );
  if (env.FFMPEG_PATH && !isExecutableFile(env.FFMPEG_PATH))
    problems.push('FFMPEG_PATH: must name an executable file (the FFmpeg binary to run)');
  if (env.TRANSCRIPTION_URL && !env.TRANSCRIPTION_MODEL)
    problems.push('TRANSCRIPTION_MODEL: required with TRANSCRIPTION_URL (e.g. whisper-1)');
  if (env.NODE_ENV === 'production' && env.DATABASE_URL) {
    for (const name of ['TOKEN_SECRET', 'URL_SIGNING_SECRET'] as const) {
      if (!env[name])
        problems.push(`${name}: required in production with DATABASE_URL (at least 32 characters)`);
    }
    if (problems.length > 0) throw new ConfigError(problems);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    embeddedDbOptimized: env.EMBEDDED_DB_OPTIMIZE,
    logLevel: env.LOG_LEVEL,
    bodyLimit: env.BODY_LIMIT,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    publicUrl: env.PUBLIC_URL,
    mail: mailSettings(env),
    trustProxy: trustProxy as TrustProxy,
    secrets: Object.freeze({ tokenSecret: env.TOKEN_SECRET, urlSigningSecret: env.URL_SIGNING_SECRET }),
    auth: Object.freeze({
      issuer: env.TOKEN_ISSUER,
      audience: env.TOKEN_AUDIENCE,
      accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlDays: env.REFRESH_TOKEN_TTL_DAYS,
      signupEnabled: env.SIGNUP_ENABLED,
      passwordHashing: Object.freeze({
        memoryKib: env.PASSWORD_HASH_MEMORY_KIB,
        iterations: env.PASSWORD_HASH_ITERATIONS,
      }),
      loginMaxFailures: env.LOGIN_MAX_FAILURES,
      loginFailureWindowSeconds: env.LOGIN_FAILURE_WINDOW_SECONDS,
      oidc:
        env.OIDC_ISSUER && env.OIDC_JWKS_URL && env.OIDC_AUDIENCE
          ? Object.freeze({
              issuer: env.OIDC_ISSUER,
              jwksUrl: env.OIDC_JWKS_URL,
              audience: env.OIDC_AUDIENCE,
            })
          : undefined,
    }),
    apiKeyPrefix: env.API_KEY_PREFIX,
    redisUrl: env.REDIS_URL,
    redisTimeoutMs: env.REDIS_TIMEOUT_MS,
    trackRetentionDays: env.TRACK_RETENTION_DAYS,
    eventRetentionDays: env.EVENT_RETENTION_DAYS,
    webhookDeliveryRetentionDays: env.WEBHOOK_DELIVERY_RETENTION_DAYS,
    jobsPollIntervalMs: env.JOBS_POLL_INTERVAL_MS,
    aiSearchLlm:
      env.AI_SEARCH_LLM_URL && env.AI_SEARCH_LLM_MODEL
        ? Object.freeze({
            url: env.AI_SEARCH_LLM_URL,
            model: env.AI_SEARCH_LLM_MODEL,
            apiKey: env.AI_SEARCH_LLM_API_KEY,
            timeoutMs: env.AI_SEARCH_LLM_TIMEOUT_MS,
          })
        : undefined,
    transcription:
      env.TRANSCRIPTION_URL && env.TRANSCRIPTION_MODEL
        ? Object.freeze({
            url: env.TRANSCRIPTION_URL,
            model: env.TRANSCRIPTION_MODEL,
            apiKey: env.TRANSCRIPTION_API_KEY,
            timeoutMs: env.TRANSCRIPTION_TIMEOUT_MS,
          })
        : undefined,
    musicTools: Object.freeze({
      ffmpegPath: env.FFMPEG_PATH,
      timeoutMs: env.MUSIC_TOOLS_TIMEOUT_MS,
      maxMemoryBytes: env.MUSIC_TOOLS_MAX_MEMORY_MB * 1024 * 1024,
      maxJobsPerTeam: env.MUSIC_TOOLS_MAX_JOBS_PER_TEAM,
      concurrency: env.MEDIA_JOBS_CONCURRENCY,
      separation: env.SEPARATION_URL
        ? Object.freeze({
            url: env.SEPARATION_URL,
            apiKey: env.SEPARATION_API_KEY,
            timeoutMs: env.SEPARATION_TIMEOUT_MS,
          })
        : undefined,
    }),
    webhookAllowedPrivateHosts: Object.freeze(webhookHosts.hosts),
    chatStream: Object.freeze({
      heartbeatMs: env.CHAT_STREAM_HEARTBEAT_MS,
      maxBufferBytes: env.CHAT_STREAM_MAX_BUFFER_BYTES,
    }),
    appVersion: appVersion.value,
    featureFlags: featureFlags.value,
    wallet: wallet.value,
    push: push.value,
    web: web.value,
    storage: storageConfig(env),
    ...packageFacts(),
  });
}
