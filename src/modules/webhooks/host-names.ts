import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Names that always mean this machine (RFC 6761), whatever a resolver says. */
const LOOPBACK_NAMES = /^(?:localhost|.+\.localhost)$/;

/**
 * One spelling per host, as the URL parser and the operating system see it: numeric IPv4 forms (`2130706433`,
 * `0x7f.1`, `127.1`) in dotted decimal, brackets dropped, an IP address in its canonical text (an IPv4-mapped
 * IPv6 address as the IPv4 address it reaches), a name in lower case without a trailing dot.
 */
export function canonicalHost(hostname: string): string {
  const bracketed = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  let parsed = hostname.toLowerCase();
  try {
    parsed = new URL(`http://${bracketed}/`).hostname;
  } catch {
    // Not a valid host: kept as given, and no resolver will find it.
  }
  const bare = parsed.startsWith('[') && parsed.endsWith(']') ? parsed.slice(1, -1) : parsed;
  if (isIP(bare)) return canonicalAddress(bare);
  return bare.replace(/\.$/, '');
}

/** The canonical text of an IP address; an IPv4-mapped IPv6 address becomes its IPv4 address. */
export function canonicalAddress(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address().toString();
  }
  return parsed.toString();
}

/** Whether a canonical host is an IP address rather than a name. */
export const isAddress = (host: string): boolean => isIP(host) !== 0;

/** Whether a canonical host name always resolves to this machine. */
export const isLoopbackName = (host: string): boolean => LOOPBACK_NAMES.test(host);

/**
 * `WEBHOOK_ALLOWED_PRIVATE_HOSTS` as canonical hosts, read the way a URL's host is read (so `127.1` and
 * `127.0.0.1` are the same entry); a problem message for an entry that is not a host.
 */
export function parseAllowedPrivateHosts(value: string | undefined): { hosts: string[]; problems: string[] } {
  const hosts: string[] = [];
  const problems: string[] = [];
  for (const entry of (value ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const bracketed = entry.includes(':') && !entry.startsWith('[') ? `[${entry}]` : entry;
    try {
      const url = new URL(`http://${bracketed}/`);
      if (url.port !== '' || url.username !== '' || url.password !== '' || url.hostname === '') throw url;
      hosts.push(canonicalHost(url.hostname));
    } catch {
      problems.push(`WEBHOOK_ALLOWED_PRIVATE_HOSTS: "${entry}" is not a host name or an IP address`);
    }
  }
  return { hosts: [...new Set(hosts)], problems };
}
