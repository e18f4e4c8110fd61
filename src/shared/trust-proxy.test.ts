import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { fastifyTrustProxy, parseTrustProxy } from './trust-proxy.ts';

const configWith = (TRUST_PROXY?: string) =>
  loadConfig({ NODE_ENV: 'test', DATA_DIR: '.tmp/unused', ...(TRUST_PROXY ? { TRUST_PROXY } : {}) });

/** The client address Fastify sees for a request from `peer` carrying `forwardedFor`. */
async function clientAddress(setting: string, peer: string, forwardedFor: string): Promise<string> {
  const trust = parseTrustProxy(setting);
  if (typeof trust === 'string') throw new Error(trust);
  const app = Fastify({ trustProxy: fastifyTrustProxy(trust) });
  app.get('/', async (request) => request.ip);
  try {
    const res = await app.inject({
      url: '/',
      remoteAddress: peer,
      headers: { 'x-forwarded-for': forwardedFor },
    });
    return res.body;
  } finally {
    await app.close();
  }
}

describe('TRUST_PROXY', () => {
  it('is off by default and reads true, false, a hop count, or addresses and CIDR ranges', () => {
    expect(configWith().trustProxy).toBe(false);
    expect(configWith('true').trustProxy).toBe(true);
    expect(configWith('FALSE').trustProxy).toBe(false);
    expect(configWith('2').trustProxy).toBe(2);
    expect(configWith('127.0.0.1, 10.0.0.0/8,::1, fd00::/8, loopback').trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses anything else, naming the bad entries', () => {
    for (const value of [
      'yes',
      '10.0.0.0/33',
      '10.0.0.1,,10.0.0.2',
      'proxy.internal',
      '1e3',
      '-1',
      '10.0.0.0/8/1',
    ]) {
      expect(() => configWith(value), value).toThrow(ConfigError);
      try {
        configWith(value);
      } catch (error) {
        expect((error as ConfigError).problems.join('\n'), value).toMatch(
          /^TRUST_PROXY: must be true, false/m,
        );
      }
    }
  });

  it('decides which X-Forwarded-For hops Fastify believes', async () => {
    const chain = '198.51.100.7, 10.0.0.5';
    expect(await clientAddress('false', '127.0.0.1', chain)).toBe('127.0.0.1');
    expect(await clientAddress('true', '127.0.0.1', chain)).toBe('198.51.100.7');
    // One hop: the peer is believed, so the address it forwards is the client.
    expect(await clientAddress('1', '127.0.0.1', chain)).toBe('10.0.0.5');
    expect(await clientAddress('2', '127.0.0.1', chain)).toBe('198.51.100.7');
    // A list: proxies in it are skipped, the first address outside it is the client.
    expect(await clientAddress('127.0.0.1, 10.0.0.0/8', '127.0.0.1', chain)).toBe('198.51.100.7');
    expect(await clientAddress('127.0.0.1', '127.0.0.1', chain)).toBe('10.0.0.5');
    expect(await clientAddress('127.0.0.1', '203.0.113.9', chain)).toBe('203.0.113.9');
  });
});
