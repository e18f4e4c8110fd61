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
