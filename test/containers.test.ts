import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError, loadConfig, SETTING_NAMES } from '../src/config.ts';

/**
 * The container files, checked without a container engine: every variable the service's containers are
 * given is a setting the service reads, and their values load; the image's shape is the one documented.
 */

type Service = { build?: unknown; image?: string; environment?: Record<string, string> | string[] };
const compose = parse(readFileSync('compose.yaml', 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const dockerfile = readFileSync('Dockerfile', 'utf8');

/** `${NAME:?message}` and `${NAME}` filled with a value long enough for any secret. */
const interpolated = (value: string) => value.replace(/\$\{[A-Z_]+(?::?[?-][^}]*)?\}/g, 'x'.repeat(40));

const environmentOf = (service: Service): Record<string, string> => {
  const { environment = {} } = service;
  if (!Array.isArray(environment)) return environment;
  return Object.fromEntries(
    environment.map((entry) => entry.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
};

/** The Dockerfile's `ENV` settings, continuation lines joined. */
const dockerfileEnv = (): Record<string, string> => {
  const joined = dockerfile.replace(/\\\n\s*/g, ' ');
  const pairs = [...joined.matchAll(/^ENV (.+)$/gm)].flatMap((line) => [
    ...line[1]!.matchAll(/([A-Z_]+)=(\S+)/g),
  ]);
  return Object.fromEntries(pairs.map((pair) => [pair[1]!, pair[2]!]));
};

// What the image sets for Node and the shell rather than for the service.
const NOT_SETTINGS = new Set(['PATH']);

describe('compose.yaml', () => {
  const replicas = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

  it('runs two replicas of the service behind one proxy, on PostgreSQL, Redis and S3', () => {
    expect(replicas.map(([name]) => name)).toEqual(['api-1', 'api-2']);
    for (const name of ['postgres', 'redis', 'minio', 'minio-init', 'caddy'])
      expect(compose.services).toHaveProperty(name);
    const caddyfile = readFileSync('deploy/Caddyfile', 'utf8');
    expect(caddyfile).toMatch(/reverse_proxy api-1:3000 api-2:3000/);
    expect(caddyfile).toMatch(/lb_policy round_robin/);
  });

  it('gives the replicas only settings the service knows, with values it loads', () => {
    for (const [name, service] of replicas) {
      const env = environmentOf(service);
      expect(
        Object.keys(env).filter((key) => !SETTING_NAMES.includes(key)),
        name,
      ).toEqual([]);
      expect(env, name).toMatchObject({ STORAGE_DRIVER: 's3', DATABASE_URL: expect.any(String) });
      const values = Object.fromEntries(
        Object.entries(env).map(([key, value]) => [key, interpolated(String(value))]),
      );
      let problems: string[] = [];
      try {
        loadConfig({ ...values, NODE_ENV: 'production' });
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        problems = error.problems;
      }
      expect(problems, name).toEqual([]);
    }
  });
});

describe('Dockerfile', () => {
  it('builds in one stage and runs production dependencies in another, from Node 24', () => {
    const stages = [...dockerfile.matchAll(/^FROM (\S+) AS (\S+)$/gm)].map((m) => [m[1], m[2]]);
    expect(stages).toEqual([
      ['node:24-bookworm-slim', 'build'],
      ['node:24-bookworm-slim', 'runtime'],
    ]);
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtime).toMatch(/npm ci --omit=dev/);
    expect(runtime).toMatch(/COPY --from=build \/app\/dist/);
    expect(runtime).toMatch(/apt-get install [^\n]*\bffmpeg\b/);
  });

  it('runs as a user other than root, with a health check and the data volume', () => {
    const users = [...dockerfile.matchAll(/^USER (\S+)$/gm)].map((m) => m[1]);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    expect(dockerfile).toMatch(/^HEALTHCHECK [^\n]*(\\\n[^\n]*)*\/api\/v1\/health/m);
    expect(dockerfile).toMatch(/^VOLUME \["\/data"\]$/m);
  });

  it('sets only settings the service knows (FFmpeg from Debian, DATA_DIR on the volume)', () => {
    const env = dockerfileEnv();
    expect(env).toMatchObject({ FFMPEG_PATH: '/usr/bin/ffmpeg', DATA_DIR: '/data', NODE_ENV: 'production' });
    expect(Object.keys(env).filter((key) => !SETTING_NAMES.includes(key) && !NOT_SETTINGS.has(key))).toEqual(
      [],
    );
  });
});
