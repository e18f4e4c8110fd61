import { lookup as dnsLookup } from 'node:dns/promises';
import type { ConnectionOptions } from 'node:tls';
import ipaddr from 'ipaddr.js';
import type { Agent, buildConnector } from 'undici';
import { lazyImport } from '../../shared/lazy-module.ts';
import { canonicalAddress, canonicalHost, isAddress, isLoopbackName } from './host-names.ts';

/** Resolves a host name to every address it has (the default asks the operating system, as `connect` would). */
export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

const undici = lazyImport(() => import('undici'));

export const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The instance metadata services of the large clouds: never a webhook target, even when listed as allowed. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254']);

/** IPv4-compatible IPv6 (`::a.b.c.d`, deprecated): ipaddr.js calls it unicast, but it embeds an IPv4 address. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** A connection the guard would not open; its message says why, without the URL (which may carry tokens). */
export class AddressRefusedError extends Error {
  readonly code = 'WEBHOOK_ADDRESS_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefusedError';
  }
}

/**
 * The range that makes an IP address no webhook target (`loopback`, `private`, `cloud metadata`, ...), or
 * undefined for a plainly public unicast address. IPv4-mapped addresses are judged by the IPv4 address they
 * carry; 6to4, Teredo, NAT64 and every other range ipaddr.js does not call `unicast` are refused.
 */
export function refusedRange(address: string): string | undefined {
  const canonical = canonicalAddress(address);
  if (METADATA_ADDRESSES.has(canonical)) return 'cloud metadata';
  const parsed = ipaddr.parse(canonical);
  if (parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE)) return 'IPv4-compatible IPv6';
  const range = parsed.range();
  return range === 'unicast' ? undefined : range;
}

/** Why a canonical address is refused, or undefined; `allowed` lets private ranges through, never metadata. */
function refusal(address: string, allowed: boolean): string | undefined {
  const range = refusedRange(address);
  if (!range || (allowed && range !== 'cloud metadata')) return undefined;
  return `${address} is not a public address (${range})`;
}

export type AddressGuardOptions = {
  /** Canonical hosts or addresses let through although private (`WEBHOOK_ALLOWED_PRIVATE_HOSTS`). */
  allowedHosts: readonly string[];
  lookup?: Lookup;
};

/**
 * The server-side request forgery guard of webhook deliveries: a URL's host is checked when it is saved (literal
 * addresses only) and again at every connection, where the name is resolved here, every address it has must be
 * public, and the connection goes to the address that was checked (no second resolution to rebind).
 */
export class AddressGuard {
  private readonly allowed: ReadonlySet<string>;
  private readonly lookup: Lookup;

  constructor(options: AddressGuardOptions) {
    this.allowed = new Set(options.allowedHosts);
    this.lookup = options.lookup ?? systemLookup;
  }

  /**
   * What is wrong with a URL host that can be told without asking a resolver (a private literal address, a
   * name that always means this machine), or undefined.
   */
  literalRefusal(hostname: string): string | undefined {
    const host = canonicalHost(hostname);
    if (isAddress(host)) return refusal(host, this.allowed.has(host));
    return isLoopbackName(host) && !this.allowed.has(host) ? `${host} names this machine` : undefined;
  }

  /** The address to connect to for a URL host: resolved once, every address checked; refuses otherwise. */
  async resolve(hostname: string): Promise<string> {
    const host = canonicalHost(hostname);
    const literal = this.literalRefusal(host);
    if (literal) throw new AddressRefusedError(`refused: ${literal}`);
    if (isAddress(host)) return host;
    let addresses: { address: string }[];
    try {
      addresses = await this.lookup(host);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new AddressRefusedError(`DNS lookup failed${typeof code === 'string' ? ` (${code})` : ''}`);
    }
    if (addresses.length === 0) throw new AddressRefusedError('DNS lookup found no address');
    const canonical = addresses.map(({ address }) => canonicalAddress(address));
    for (const address of canonical) {
      const refused = refusal(address, this.allowed.has(host) || this.allowed.has(address));
      if (refused) throw new AddressRefusedError(`refused: ${host} resolves to ${refused}`);
    }
    return canonical[0]!;
  }

  /**
   * An undici connector that connects only to addresses `resolve` accepted. TLS still checks the certificate
   * against the URL's host name (sent as SNI); `tls` adds options such as a private `ca`.
   */
  async connector(timeoutMs: number, tls: ConnectionOptions = {}): Promise<buildConnector.connector> {
    const { buildConnector } = await undici();
    const connect = buildConnector({ ...tls, timeout: timeoutMs });
    return (options, callback) => {
      this.resolve(options.hostname).then(
        (address) => connect({ ...options, hostname: address }, callback),
        (error: Error) => callback(error, null),
      );
    };
  }

  /** An HTTP agent whose every connection passes the guard; the undici agent is made at its first request. */
  agent(timeoutMs: number, tls: ConnectionOptions = {}): GuardedAgent {
    return new GuardedAgent(async () => {
      const { Agent } = await undici();
      return new Agent({
        connect: await this.connector(timeoutMs, tls),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    });
  }
}

/** The guard's HTTP agent: its undici agent is made on the first request, closed with it if made by then. */
export class GuardedAgent {
  private made: Promise<Agent> | undefined;
  private closed = false;

  constructor(private readonly make: () => Promise<Agent>) {}

  /** The undici agent to send through; one made after close() is closed too, as the agent would be. */
  dispatcher(): Promise<Agent> {
    this.made ??= this.make().then((agent) => {
      if (this.closed) void agent.close();
      return agent;
    });
    return this.made;
  }

  /** Closes the undici agent, waiting for the requests it is sending (as undici's `close`). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.made) await (await this.made).close();
  }
}
