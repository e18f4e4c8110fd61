import type { AddressGuard } from './address-guard.ts';

/**
 * A webhook URL as it is stored (the URL parser's normal form, so the host checked is the host called), or
 * the reason it is refused: not http(s), credentials in it, or a host that is plainly private. Hosts behind
 * names are checked again at every connection.
 */
export function checkEndpointUrl(raw: string, guard: AddressGuard): { url: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'must be an absolute http or https URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'must use https or http' };
  if (url.username !== '' || url.password !== '') {
    return {
      problem: 'must not carry credentials (user:password@); put a token in the path or query instead',
    };
  }
  const refusal = guard.literalRefusal(url.hostname);
  if (refusal) return { problem: `is refused: ${refusal}` };
  return { url: url.href };
}
