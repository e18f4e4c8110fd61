import type { Db } from '../../../db/client.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Clock } from '../../../shared/clock.ts';
import type { RateLimits } from '../../../shared/rate-limits.ts';
import type { Passwords } from '../../auth/passwords.ts';
import type { DownloadMarks } from '../../files/download-marks.ts';
import { ShareLinkTokens } from '../link-tokens.ts';
import { GuestService } from './guest.service.ts';
import { GuestAccess } from './guest-access.ts';
import { GuestCommentsService } from './guest-comments.service.ts';
import { GuestTokens } from './guest-tokens.ts';

/** The guest side of review links, wired once per process (it registers its download-mark guard and handler). */
export function createShareLinkGuestServices(deps: {
  db: Db;
  clock: Clock;
  urlSigningSecret: string;
  marks: DownloadMarks;
  events: EventLog;
  limits: RateLimits;
  passwords: Passwords;
}) {
  const { db, clock, events, limits } = deps;
  const guestTokens = new GuestTokens(deps.urlSigningSecret);
  const access = new GuestAccess(db, clock, new ShareLinkTokens(deps.urlSigningSecret), guestTokens);
  return {
    shareLinkGuests: new GuestService(db, clock, access, {
      marks: deps.marks,
      events,
      limits,
      passwords: deps.passwords,
      guestTokens,
    }),
    shareLinkGuestComments: new GuestCommentsService(db, clock, access, events, limits),
  };
}
