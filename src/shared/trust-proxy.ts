import { isIP } from 'node:net';
import type { FastifyServerOptions } from 'fastify';

/** Which forwarding proxies are believed about the client address: Fastify's `trustProxy`. */
export type TrustProxy = boolean | number | readonly string[];

// Named ranges proxy-addr (Fastify's proxy resolver) understands.
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry) || isIP(entry) !== 0) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0 || !/^\d{1,3}$/.test(bits ?? '')) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * Reads `TRUST_PROXY`: `true` or `false`, a number of proxy hops, or a comma-separated list of proxy
 * addresses and CIDR ranges (or `loopback`, `linklocal`, `uniquelocal`). A string describes the problem.
 */
export function parseTrustProxy(value: string): TrustProxy | string {
  const text = value.trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (/^\d{1,3}$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (bad.length === 0) return Object.freeze(entries);
  return `must be true, false, a hop count or a comma-separated list of addresses/CIDR ranges (bad: ${bad.map((b) => JSON.stringify(b)).join(', ')})`;
}

/**
 * The setting as Fastify takes it. A hop count becomes a function trusting that many hops: Fastify itself
 * trusts nothing for a bare number. A count is only sound when clients cannot reach the server but
 * through those proxies; a list of proxy addresses is the safer choice.
 */
export function fastifyTrustProxy(setting: TrustProxy): FastifyServerOptions['trustProxy'] {
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting;
  return typeof setting === 'object' ? [...setting] : setting;
}
