import type { Db } from '../../../db/client.ts';
import { actorOf } from '../../../events/actor.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { errors } from '../../../shared/errors.ts';
import { requireTeam, sessionUserId } from '../../../shared/tenancy.ts';
import { requireSession } from '../session-access.ts';
import { linkRefused, type SessionLinkSigners } from '../session-links.ts';
import * as repo from './calendar.repository.ts';
import { calendarOf } from './calendar-feed.ts';

/** How far back a feed reaches, and how many sessions it holds at most. */
export const FEED_DAYS_BACK = 90;
export const FEED_MAX_SESSIONS = 2000;
const DAY_MS = 86_400_000;

/**
 * Calendar feeds of a team's sessions: a signed URL per member and team that does not expire but stops
 * working when the member rotates it or leaves the team.
 */
export class CalendarService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventLog,
    private readonly signers: SessionLinkSigners,
    private readonly baseUrl: string,
  ) {}

  /** The caller's feed URLs of the session's team. */
  async follow(principal: Principal, sessionId: number, teamId?: number) {
    const { userId, session } = await requireSession(this.db, principal, sessionId, 'member', teamId);
    return this.urls(session.teamId, userId, await repo.feedVersion(this.db, session.teamId, userId));
  }

  /** New feed URLs of the team for the caller; the ones handed out before stop working. */
  async rotate(principal: Principal, teamId: number) {
    const userId = sessionUserId(principal);
    await requireTeam(this.db, principal, teamId);
    const version = await this.db.transaction(async (tx) => {
      const next = await repo.rotateFeed(tx, teamId, userId, this.clock.now());
      await this.events.record(tx, {
        type: 'session_calendar.rotated',
        subject: { type: 'team', id: teamId },
        actor: actorOf(principal),
        teamId,
      });
      return next;
    });
    return this.urls(teamId, userId, version);
  }

  /** The iCalendar text of a feed URL's token; 403 when it does not verify, 404 once revoked. */
  async feed(token: string): Promise<string> {
    const now = this.clock.now();
    const check = this.signers.feeds.verify(token, now);
    if (!check.ok) throw linkRefused(check.reason);
    const { t: teamId, u: userId, v: version } = check.claims;
    const active = await repo.activeFeed(this.db, { teamId, userId, version });
    if (!active) throw errors.notFound('calendar feed');
    const since = new Date(now.getTime() - FEED_DAYS_BACK * DAY_MS);
    const sessions = await repo.feedSessions(this.db, teamId, since, FEED_MAX_SESSIONS);
    return calendarOf({ teamName: active.teamName, host: new URL(this.baseUrl).hostname, now }, sessions);
  }

  private urls(teamId: number, userId: string, version: number) {
    const token = this.signers.feeds.sign({ t: teamId, u: userId, v: version });
    const icsUrl = `${this.baseUrl}/api/v1/sessions/calendar/${token}.ics`;
    return { icsUrl, webcalUrl: icsUrl.replace(/^https?:/, 'webcal:') };
  }
}
