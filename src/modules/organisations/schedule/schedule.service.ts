import type { Db } from '../../../db/client.ts';
import type { StudioSessionStatus } from '../../../db/schema/index.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { errors } from '../../../shared/errors.ts';
import { toPage } from '../../../shared/pagination.ts';
import { decodeSessionCursor, instantRange } from '../../sessions/session-cursors.ts';
import { keyOf, type SessionRow } from '../../sessions/sessions.repository.ts';
import { requireOrganisation } from '../access.ts';
import { requireCampRef } from '../camps/camp-ref.ts';
import * as repo from './schedule.repository.ts';
import { MAX_WEEK_SESSIONS } from './schedule.schemas.ts';

type Page = { limit: number; cursor?: string | undefined };
const DAY = 24 * 60 * 60 * 1000;

/** The calendar date of an instant in a time zone, as YYYY-MM-DD; 400 for a zone that does not exist. */
function dayFormatter(timezone: string) {
  try {
    const format = new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    return { format: (instant: Date) => format.format(instant), zone: format.resolvedOptions().timeZone };
  } catch {
    throw errors.validation([{ path: '/query/timezone', message: 'is not a known IANA time zone' }]);
  }
}

/** Every date from `first` through `last` (YYYY-MM-DD, UTC arithmetic on calendar dates). */
function datesBetween(first: string, last: string): string[] {
  const dates: string[] = [];
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += DAY)
    dates.push(new Date(t).toISOString().slice(0, 10));
  return dates;
}

/** The organisation's schedule of studio sessions, and a camp's sessions day by day. */
export class ScheduleService {
  constructor(private readonly db: Db) {}

  async organisationSessions(
    principal: Principal,
    organisationId: number,
    query: Page & {
      from?: string | undefined;
      to?: string | undefined;
      status?: StudioSessionStatus | undefined;
    },
  ) {
    await requireOrganisation(this.db, principal, organisationId);
    const range = instantRange(query);
    const rows = await repo.listOrganisationSessions(
      this.db,
      { organisationId, ...range, status: query.status },
      decodeSessionCursor(query.cursor),
      query.limit + 1,
    );
    return toPage(rows, query.limit, keyOf);
  }

  async campWeek(principal: Principal, campRef: string, timezone = 'UTC') {
    const days = dayFormatter(timezone);
    const { camp } = await requireCampRef(this.db, principal, campRef);
    const rows = await repo.campSessions(this.db, camp.id, MAX_WEEK_SESSIONS);
    const byDay = new Map<string, SessionRow[]>(datesBetween(camp.startsOn, camp.endsOn).map((d) => [d, []]));
    for (const row of rows) {
      const date = days.format(row.startsAt);
      const list = byDay.get(date);
      if (list) list.push(row);
      else byDay.set(date, [row]);
    }
    return {
      campId: camp.id,
      slug: camp.slug,
      startsOn: camp.startsOn,
      endsOn: camp.endsOn,
      timezone: days.zone,
      days: [...byDay.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([date, sessions]) => ({ date, sessions })),
    };
  }
}
