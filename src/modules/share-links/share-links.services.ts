import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Clock } from '../../shared/clock.ts';
import { publicBaseUrl } from '../../shared/public-url.ts';
import type { RateLimits } from '../../shared/rate-limits.ts';
import type { Secrets } from '../../shared/secrets.ts';
import { withoutTrailing } from '../../shared/text.ts';
import type { Passwords } from '../auth/passwords.ts';
import { ShareLinkTokens } from './link-tokens.ts';
import { WayInAddresses } from './share-link-view.ts';
import { ShareLinksService } from './share-links.service.ts';

type Deps = {
  db: Db;
  clock: Clock;
  config: Config;
  secrets: Secrets;
  passwords: Passwords;
  mailer: Mailer;
  limits: RateLimits;
};

/** The management of review links, with the tokens and URLs of their ways in. */
export function createShareLinksService(deps: Deps): ShareLinksService {
  const baseUrl = withoutTrailing(publicBaseUrl(deps.config), (c) => c === '/');
  const addresses = new WayInAddresses(new ShareLinkTokens(deps.secrets.urlSigningSecret), baseUrl);
  return new ShareLinksService(deps.db, deps.clock, deps.passwords, deps.mailer, addresses, deps.limits);
}
