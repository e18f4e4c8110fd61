import type { ErrorDetail } from '../../shared/errors.ts';
import { MAX_SOCIAL_LINKS } from './teams.schemas.ts';

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The team's links after a patch (null removes a network), or the problems with the patch. */
export function mergeSocials(
  current: Record<string, string>,
  patch: Record<string, string | null>,
): { socials: Record<string, string> } | { problems: ErrorDetail[] } {
  const problems: ErrorDetail[] = [];
  const socials = { ...current };
  for (const [network, url] of Object.entries(patch)) {
    if (url === null) {
      delete socials[network];
    } else if (isWebUrl(url)) {
      socials[network] = url;
    } else {
      problems.push({ path: `/body/socials/${network}`, message: 'must be an http or https URL' });
    }
  }
  if (problems.length === 0 && Object.keys(socials).length > MAX_SOCIAL_LINKS) {
    problems.push({ path: '/body/socials', message: `a team has at most ${MAX_SOCIAL_LINKS} links` });
  }
  return problems.length > 0 ? { problems } : { socials };
}
