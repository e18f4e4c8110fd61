import type { Db } from '../../../db/client.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Clock } from '../../../shared/clock.ts';
import { errors } from '../../../shared/errors.ts';
import type { RateLimits } from '../../../shared/rate-limits.ts';
import type { Passwords } from '../../auth/passwords.ts';
import type { DownloadMarks } from '../../files/download-marks.ts';
import { guestErrors } from './guest.errors.ts';
import type { GuestAccess } from './guest-access.ts';
import * as activity from './guest-activity.repository.ts';
import { recordGuestEvent } from './guest-events.ts';
import { parseGuestMark, SHARE_LINK_TOPIC } from './guest-marks.ts';
import type { GuestTokens } from './guest-tokens.ts';
import { guestView } from './guest-view.ts';

/** Opens of one way in closer together than this are one visit. */
export const OPEN_REPEAT_SECONDS = 30 * 60;

/** Unlock attempts: per link and client, and per link whoever tries. */
export const UNLOCK_LIMITS = {
  perClient: { name: 'share_unlock_client', points: 10, seconds: 15 * 60 },
  perLink: { name: 'share_unlock_link', points: 100, seconds: 60 * 60 },
} as const;

/** Play reports a client may send through one link in an hour (a player reports as it goes). */
export const GUEST_PLAY_LIMIT = { name: 'share_play', points: 600, seconds: 60 * 60 } as const;

/** Fetches of one download URL's file through one way in this close together are one download. */
export const DOWNLOAD_REPEAT_SECONDS = 30;

export type PlayReport = { versionId: number; playId: string; secondsListened: number };

/**
 * The guest side of review links: what a link shows, unlocking a link with its password, plays reported by the
 * guest's player, and the audio URLs (guarded on every fetch, downloads counted).
 */
export class GuestService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly access: GuestAccess,
    private readonly deps: {
      marks: DownloadMarks;
      events: EventLog;
      limits: RateLimits;
      passwords: Passwords;
      guestTokens: GuestTokens;
    },
  ) {
    deps.marks.guard(SHARE_LINK_TOPIC, async (subject) => {
      const mark = parseGuestMark(subject);
      return mark !== undefined && (await this.access.fileOf(mark)) !== undefined;
    });
    deps.marks.on(SHARE_LINK_TOPIC, (subject) => this.fetched(subject));
  }

  /** What the link shows now, with fresh audio URLs; counts an open of the way in. */
  async view(token: string, guestToken: string | undefined) {
    const entry = await this.access.enter(token, guestToken);
    const { wayIn } = entry;
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      const through = { linkId: wayIn.link.id, recipientId: wayIn.recipientId };
      const open = await activity.recordOpen(tx, through, now, OPEN_REPEAT_SECONDS);
      if (open.first)
        await recordGuestEvent(this.deps.events, tx, wayIn, 'share_link.opened', {
          trackId: wayIn.link.trackId,
          versionId: wayIn.link.versionId,
        });
    });
    return guestView(this.deps.marks, entry);
  }

  /** A guest token for a link with a password: 403 for a wrong password, 429 past the attempts allowed. */
  async unlock(token: string, password: string, client: string) {
    const { wayIn } = await this.access.open(token);
    const { link } = wayIn;
    const { perClient, perLink } = UNLOCK_LIMITS;
    for (const [limit, key] of [
      [perClient, `${link.id}:${client}`],
      [perLink, String(link.id)],
    ] as const) {
      const taken = await this.deps.limits.consume(limit.name, key, limit.points, limit.seconds);
      if (!taken.allowed) throw errors.rateLimited(taken.resetSeconds);
    }
    if (link.passwordHash !== null && !(await this.deps.passwords.verify(link.passwordHash, password)))
      throw guestErrors.invalidPassword();
    return this.deps.guestTokens.issue(wayIn.recipientId, link.passwordVersion, this.clock.now());
  }

  /** A report of the guest's player: the first of a playId is a play, later ones raise its seconds. */
  async play(token: string, guestToken: string | undefined, report: PlayReport, client: string) {
    const { wayIn, content } = await this.access.enter(token, guestToken);
    const { name, points, seconds: window } = GUEST_PLAY_LIMIT;
    const taken = await this.deps.limits.consume(name, `${wayIn.link.id}:${client}`, points, window);
    if (!taken.allowed) throw errors.rateLimited(taken.resetSeconds);
    const item = content.items.find((i) => i.version.id === report.versionId);
    if (!item)
      throw errors.validation([{ path: '/body/versionId', message: 'is not a version this link shows' }]);
    const duration = item.version.durationSeconds ?? item.audio?.audio?.durationSeconds ?? null;
    const seconds = duration === null ? report.secondsListened : Math.min(report.secondsListened, duration);
    await this.db.transaction((tx) =>
      activity.recordPlay(
        tx,
        { linkId: wayIn.link.id, recipientId: wayIn.recipientId },
        { versionId: item.version.id, playId: report.playId, seconds },
        this.clock.now(),
      ),
    );
  }

  /** A guest's URL fetched from its first byte: a download counts (a stream's plays come from the player). */
  private async fetched(subject: string): Promise<void> {
    const mark = parseGuestMark(subject);
    if (mark?.delivery !== 'download') return;
    const found = await this.access.fileOf(mark);
    if (!found) return;
    const { wayIn, ref } = found;
    const file = {
      versionId: ref.versionId,
      fileId: ref.file.id,
      ...(ref.stemId === undefined ? {} : { stemId: ref.stemId }),
    };
    await this.db.transaction(async (tx) => {
      const through = { linkId: wayIn.link.id, recipientId: wayIn.recipientId };
      const now = this.clock.now();
      if (!(await activity.recordDownload(tx, through, file, now, DOWNLOAD_REPEAT_SECONDS))) return;
      await recordGuestEvent(this.deps.events, tx, wayIn, 'share_link.downloaded', {
        trackId: ref.trackId,
        ...file,
      });
    });
  }
}
