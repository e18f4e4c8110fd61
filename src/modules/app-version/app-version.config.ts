import { type Static, Type } from '@sinclair/typebox';

const PLATFORMS = ['ios', 'android', 'web'] as const;
type Platform = (typeof PLATFORMS)[number];

const Version = Type.Optional(Type.String({ maxLength: 64 }));

/** The environment variables of `GET /api/v1/app-version`. */
export const AppVersionEnv = Type.Object({
  APP_VERSION_LATEST_IOS: Version,
  APP_VERSION_LATEST_ANDROID: Version,
  APP_VERSION_LATEST_WEB: Version,
  APP_VERSION_MINIMUM_IOS: Version,
  APP_VERSION_MINIMUM_ANDROID: Version,
  APP_VERSION_MINIMUM_WEB: Version,
  APP_UPDATE_URL: Type.Optional(Type.String({ maxLength: 2048 })),
});

type Env = Static<typeof AppVersionEnv>;

type PerPlatform = Readonly<Record<Platform, string | null>>;

/** What clients are told about app versions; null where nothing is configured. */
export type AppVersionSettings = Readonly<{
  latest: PerPlatform;
  minimumSupported: PerPlatform;
  updateUrl: string | null;
}>;

// MAJOR[.MINOR[.PATCH]] with an optional semver pre-release and build suffix: 2, 2.4, 2.4.1-beta.2+77.
const VERSION =
  /^(0|[1-9]\d{0,8})(\.(0|[1-9]\d{0,8})){0,2}(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

/** Compares the numeric parts only (2.4 = 2.4.0); enough to tell a minimum above the latest. */
function numericOrder(a: string, b: string): number {
  const parts = (v: string) => (v.split(/[-+]/)[0] ?? '').split('.').map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The app versions from the environment, and a message for every value that is not a version. */
export function appVersionSettings(env: Env): { value: AppVersionSettings; problems: string[] } {
  const problems: string[] = [];
  const read = (kind: 'LATEST' | 'MINIMUM', platform: Platform): string | null => {
    const name = `APP_VERSION_${kind}_${platform.toUpperCase()}` as keyof Env;
    const value = env[name]?.trim();
    if (!value) return null;
    if (!VERSION.test(value)) {
      problems.push(
        `${name}: must be a version such as 2, 2.4 or 2.4.1-beta.1 (got ${JSON.stringify(value)})`,
      );
      return null;
    }
    return value;
  };
  const latest = Object.fromEntries(PLATFORMS.map((p) => [p, read('LATEST', p)])) as PerPlatform;
  const minimumSupported = Object.fromEntries(PLATFORMS.map((p) => [p, read('MINIMUM', p)])) as PerPlatform;
  for (const p of PLATFORMS) {
    const [newest, minimum] = [latest[p], minimumSupported[p]];
    if (newest && minimum && numericOrder(minimum, newest) > 0)
      problems.push(
        `APP_VERSION_MINIMUM_${p.toUpperCase()}: ${minimum} is above APP_VERSION_LATEST_${p.toUpperCase()} (${newest})`,
      );
  }
  const updateUrl = env.APP_UPDATE_URL?.trim() || null;
  if (updateUrl && !/^https?:\/\/[^\s/?#]\S*$/i.test(updateUrl))
    problems.push(`APP_UPDATE_URL: must be an http or https URL (got ${JSON.stringify(updateUrl)})`);
  return {
    value: Object.freeze({
      latest: Object.freeze(latest),
      minimumSupported: Object.freeze(minimumSupported),
      updateUrl: problems.length ? null : updateUrl,
    }),
    problems,
  };
}
