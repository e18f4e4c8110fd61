import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('password hashing cost', () => {
  it('defaults to the OWASP argon2id parameters', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).auth.passwordHashing).toEqual({
      memoryKib: 19_456,
      iterations: 2,
    });
  });

  it('refuses a cost below the OWASP minimum outside tests, and allows it in tests', () => {
    const cheap = { PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_ITERATIONS: '1' };
    for (const env of ['production', 'development'])
      expect(() => loadConfig({ NODE_ENV: env, ...cheap })).toThrow(/PASSWORD_HASH_MEMORY_KIB.*OWASP/);
    expect(loadConfig({ NODE_ENV: 'test', ...cheap }).auth.passwordHashing).toEqual({
      memoryKib: 1024,
      iterations: 1,
    });
  });
});

describe('configuration problems', () => {
  const MARK = 'Sekr1t';
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig({ NODE_ENV: 'test', ...env });
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('the configuration loaded');
  };

  it('name a bad secret, or a URL that may hold a password, without echoing it', () => {
    const message = problemsOf({
      TOKEN_SECRET: `short-${MARK}`,
      URL_SIGNING_SECRET: `${MARK}-url`.repeat(9_000),
      DATABASE_URL: `mysql://root:${MARK}@db.example.com/tmw`,
      REDIS_URL: `http://:${MARK}@cache.example.com`,
      AI_SEARCH_LLM_API_KEY: `${MARK}`.repeat(20_000),
    });
    for (const name of ['TOKEN_SECRET', 'DATABASE_URL', 'REDIS_URL']) expect(message).toContain(`${name}:`);
    expect(message).not.toContain(MARK);
  });

  it('name bad wallet and push keys and endpoints without echoing them', () => {
    const message = problemsOf({
      WALLET_APPLE_PASS_TYPE_ID: 'pass.example',
      WALLET_APPLE_TEAM_ID: 'ABCDE12345',
      WALLET_APPLE_CERTIFICATE: `-----BEGIN CERTIFICATE-----\n${MARK}\n-----END CERTIFICATE-----`,
      WALLET_APPLE_KEY: `-----BEGIN PRIVATE KEY-----\n${MARK}\n-----END PRIVATE KEY-----`,
      WALLET_APPLE_KEY_PASSPHRASE: MARK,
      WALLET_APPLE_WWDR_CERTIFICATE: `-----BEGIN CERTIFICATE-----\n${MARK}\n-----END CERTIFICATE-----`,
      WALLET_GOOGLE_ISSUER_ID: '1234',
      WALLET_GOOGLE_CLASS_ID: 'tickets',
      WALLET_GOOGLE_SERVICE_ACCOUNT: `{"client_email":"a@b.c","private_key":"${MARK}"}`,
      FCM_SERVICE_ACCOUNT: `{"private_key":"${MARK}"}`,
      FCM_API_URL: `::${MARK}::`,
      APNS_KEY: `-----BEGIN PRIVATE KEY-----\n${MARK}\n-----END PRIVATE KEY-----`,
      APNS_KEY_ID: 'KEYID12345',
      APNS_TEAM_ID: 'ABCDE12345',
      APNS_TOPIC: 'com.example.app',
    });
    for (const name of ['WALLET_APPLE_KEY', 'WALLET_GOOGLE_SERVICE_ACCOUNT', 'FCM_API_URL', 'APNS_KEY'])
      expect(message).toContain(name);
    expect(message).not.toContain(MARK);
  });

  it('still show a bad number or choice, which is no secret', () => {
    expect(problemsOf({ PORT: 'eighty' })).toContain('PORT: ');
    expect(problemsOf({ PORT: 'eighty' })).toContain('"eighty"');
    expect(problemsOf({ LOG_LEVEL: 'loud' })).toContain('"loud"');
  });
});
