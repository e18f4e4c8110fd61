import { describe, expect, it } from 'vitest';
import { configProblems } from '../../../test/helpers/config-problems.ts';
import { useTestContext } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import { loadConfig } from '../../config.ts';

const ctx = useTestContext({
  env: {
    APP_VERSION_LATEST_IOS: '2.4.1',
    APP_VERSION_LATEST_ANDROID: '2.4.0-beta.3+77',
    APP_VERSION_MINIMUM_IOS: '2.0',
    APP_UPDATE_URL: 'https://example.test/update',
  },
});

const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: '/api/v1/app-version',
    teamScoped: false,
    build: () => ({ url: '/api/v1/app-version/' }),
  },
];

describe('GET /api/v1/app-version', () => {
  it('answers the configured versions to a session or an API key, null where nothing is set', async () => {
    const team = await ctx.newTeam();
    const key = await ctx.newApiKey(team);
    const expected = {
      latest: { ios: '2.4.1', android: '2.4.0-beta.3+77', web: null },
      minimumSupported: { ios: '2.0', android: null, web: null },
      updateUrl: 'https://example.test/update',
    };
    for (const token of [team.owner.token, key]) {
      for (const url of ['/api/v1/app-version', '/api/v1/app-version/']) {
        const res = await ctx.request({ method: 'GET', url, token });
        expect(res.statusCode, url).toBe(200);
        expect(res.json()).toEqual(expected);
      }
    }
  });

  it('declares any-token access (N), as the specification marks it', async () => {
    await expectAreaAuthClasses(
      ctx,
      (r) => r.operationId === 'appVersion.get',
      { 'GET /api/v1/app-version': { auth: 'anyToken', extension: false } },
      cases,
    );
  });
});

describe('app version configuration', () => {
  it('always carries updateUrl: null when nothing is configured', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).appVersion).toEqual({
      latest: { ios: null, android: null, web: null },
      minimumSupported: { ios: null, android: null, web: null },
      updateUrl: null,
    });
  });

  it('lists every bad value at once', () => {
    const problems = configProblems({
      APP_VERSION_LATEST_IOS: 'v2',
      APP_VERSION_LATEST_WEB: '1.2.3.4',
      APP_VERSION_MINIMUM_ANDROID: '01.2',
      APP_VERSION_LATEST_ANDROID: '3.1',
      APP_VERSION_MINIMUM_WEB: '2.0.0',
      APP_UPDATE_URL: 'ftp://example.test',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^APP_VERSION_LATEST_IOS: must be a version .*"v2"/),
      expect.stringMatching(/^APP_VERSION_LATEST_WEB: .*"1\.2\.3\.4"/),
      expect.stringMatching(/^APP_VERSION_MINIMUM_ANDROID: .*"01\.2"/),
      expect.stringMatching(/^APP_UPDATE_URL: must be an http or https URL/),
    ]);
  });

  it('refuses a minimum above the latest version of the same platform', () => {
    expect(configProblems({ APP_VERSION_LATEST_IOS: '2.4', APP_VERSION_MINIMUM_IOS: '2.10.0' })).toEqual([
      'APP_VERSION_MINIMUM_IOS: 2.10.0 is above APP_VERSION_LATEST_IOS (2.4)',
    ]);
    expect(configProblems({ APP_VERSION_LATEST_IOS: '2.4.0', APP_VERSION_MINIMUM_IOS: '2.4-rc.1' })).toEqual(
      [],
    );
  });
});

describeSecurityMatrix(ctx, cases);
