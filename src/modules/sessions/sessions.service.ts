import type { Db } from '../../db/client.ts';
import type { StudioSessionStatus } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { sqlState } from '../../shared/db-errors.ts';
import { errors } from '../../shared/errors.ts';
import { toPage, withTotal } from '../../shared/pagination.ts';
import { requireTeam, sessionUserId } from '../../shared/tenancy.ts';
import type { FilesService } from '../files/files.service.ts';
import type { Booking } from './booking-events.ts';
import { requireSession } from './session-access.ts';
import { decodeSessionCursor, instantRange } from './session-cursors.ts';
import type { SessionEvents } from './session-events.ts';
import { ownersOfSession } from './session-owners.ts';
import * as repo from './sessions.repository.ts';
import { DEFAULT_SESSION_HOURS } from './sessions.schemas.ts';

type Page = { limit: number; cursor?: string | undefined };

export type SessionInput = {
  teamId: number;
  title: string;
  startsAt: string;
  endsAt?: string | undefined;
  studioId?: number | null | undefined;
  campId?: number | null | undefined;
  notes?: string | null | undefined;
};

export type SessionPatch = Partial<Omit<SessionInput, 'teamId'>> & {
  teamId?: number | undefined;
  status?: StudioSessionStatus | undefined;
};

const EXCLUSION_VIOLATION = '23P01';
const FOREIGN_KEY_VIOLATION = '23503';
const HOUR_MS = 3_600_000;

const bookingOf = (session: repo.SessionRow, organisationId: number | undefined): Booking | null =>
  session.studioId !== null && session.status !== 'cancelled' && organisationId !== undefined
    ? { organisationId, session }
    : null;

/**
 * Runs a write that may book a studio: an overlap with another booking is 409, whoever committed first; a
 * studio or camp deleted since it was checked is 404.
 */
async function booking<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (sqlState(error) === FOREIGN_KEY_VIOLATION) throw errors.notFound('studio or camp');
    if (sqlState(error) === EXCLUSION_VIOLATION) {
      throw errors.conflict(
        'The studio is already booked for part of this time: bookings occupy [startsAt, endsAt), so a ' +
          'session may start when another ends. Choose another time or studio',
      );
    }
    throw error;
  }
}

/** endsAt after startsAt; the error names the field the request changed. */
function orderedTimes(startsAt: Date, endsAt: Date, changed: 'endsAt' | 'startsAt'): void {
  if (endsAt > startsAt) return;
  const message = changed === 'endsAt' ? 'must be after startsAt' : 'must be before endsAt';
  throw errors.validation([{ path: `/body/${changed}`, message }]);
}

/** A team's studio sessions and their studio bookings: list, create, read, change, delete. */
export class SessionsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: FilesService,
    private readonly events: SessionEvents,
  ) {}

  /** A page of the caller's sessions (one team's, or all they see), latest start first. */
  async list(
    principal: Principal,
    query: Page & {
      teamId?: number | undefined;
      from?: string;
      to?: string;
      status?: StudioSessionStatus;
      count?: boolean;
    },
  ) {
    const userId = sessionUserId(principal);
    if (query.teamId !== undefined) await requireTeam(this.db, principal, query.teamId);
    const scope = query.teamId === undefined ? { userId } : { teamId: query.teamId };
    const filter = { scope, ...instantRange(query), status: query.status };
    const rows = await repo.listSessions(this.db, filter, decodeSessionCursor(query.cursor), query.limit + 1);
    return withTotal(toPage(rows, query.limit, repo.keyOf), query.count, () =>
      repo.countSessions(this.db, filter),
    );
  }

  /** The caller's sessions running now: `live`, or `scheduled` with now in [startsAt, endsAt). */
  async live(principal: Principal, page: Page) {
    const rows = await repo.liveSessions(
      this.db,
      sessionUserId(principal),
      this.clock.now(),
      decodeSessionCursor(page.cursor),
      page.limit + 1,
    );
    return toPage(rows, page.limit, repo.keyOf);
  }

  /** The team's scheduled sessions that have not started yet, soonest first. */
  async upcoming(principal: Principal, teamId: number, page: Page) {
    await requireTeam(this.db, principal, teamId);
    const rows = await repo.upcomingSessions(
      this.db,
      teamId,
      this.clock.now(),
      decodeSessionCursor(page.cursor),
      page.limit + 1,
    );
    return toPage(rows, page.limit, repo.keyOf);
  }

  async get(principal: Principal, sessionId: number, teamId?: number) {
    return (await requireSession(this.db, principal, sessionId, 'participant', teamId)).session;
  }

  async create(principal: Principal, input: SessionInput) {
    const userId = sessionUserId(principal);
    await requireTeam(this.db, principal, input.teamId);
    const startsAt = new Date(input.startsAt);
    const endsAt = input.endsAt
      ? new Date(input.endsAt)
      : new Date(startsAt.getTime() + DEFAULT_SESSION_HOURS * HOUR_MS);
    orderedTimes(startsAt, endsAt, 'endsAt');
    const organisationId = await this.checkPlaces(input.teamId, input);
    return booking(() =>
      this.db.transaction(async (tx) => {
        const session = await repo.insertSession(tx, {
          teamId: input.teamId,
          title: input.title.trim(),
          startsAt,
          endsAt,
          studioId: input.studioId ?? null,
          campId: input.campId ?? null,
          notes: input.notes ?? null,
          status: 'scheduled',
          createdBy: userId,
          now: this.clock.now(),
        });
        await this.events.record(tx, principal, session, 'created');
        await this.events.booking(tx, principal, null, bookingOf(session, organisationId));
        return session;
      }),
    );
  }

  async update(principal: Principal, sessionId: number, patch: SessionPatch) {
    const { teamId, ...fields } = patch;
    if (Object.keys(fields).length === 0)
      throw errors.validation([{ path: '/body', message: 'must name a field to change besides teamId' }]);
    const { session: current } = await requireSession(this.db, principal, sessionId, 'member', teamId);
    await this.checkPlaces(current.teamId, fields);
    return booking(() =>
      this.db.transaction(async (tx) => {
        const before = await repo.lockSession(tx, sessionId);
        if (!before) throw errors.notFound('session');
        const startsAt = fields.startsAt ? new Date(fields.startsAt) : before.startsAt;
        const endsAt = fields.endsAt ? new Date(fields.endsAt) : before.endsAt;
        orderedTimes(startsAt, endsAt, fields.endsAt ? 'endsAt' : 'startsAt');
        const after = await repo.updateSession(
          tx,
          sessionId,
          {
            ...(fields.title !== undefined ? { title: fields.title.trim() } : {}),
            ...(fields.startsAt !== undefined ? { startsAt } : {}),
            ...(fields.endsAt !== undefined ? { endsAt } : {}),
            ...(fields.studioId !== undefined ? { studioId: fields.studioId } : {}),
            ...(fields.campId !== undefined ? { campId: fields.campId } : {}),
            ...(fields.notes !== undefined ? { notes: fields.notes } : {}),
            ...(fields.status !== undefined ? { status: fields.status } : {}),
          },
          this.clock.now(),
        );
        await this.events.record(tx, principal, after, 'updated', { fields: Object.keys(fields) });
        await this.events.booking(
          tx,
          principal,
          await this.bookingIn(tx, before),
          await this.bookingIn(tx, after),
        );
        return after;
      }),
    );
  }

  /** Deletes a session with everything in it (files too); a booking it held is cancelled. */
  async remove(principal: Principal, sessionId: number, teamId?: number): Promise<void> {
    await requireSession(this.db, principal, sessionId, 'member', teamId);
    await this.files.transaction(async (tx) => {
      const before = await repo.lockSession(tx, sessionId);
      if (!before) throw errors.notFound('session');
      await this.files.deleteOfOwners(before.teamId, ownersOfSession(sessionId), { tx });
      await repo.deleteSession(tx, sessionId);
      await this.events.record(tx, principal, before, 'deleted', { title: before.title });
      await this.events.booking(tx, principal, await this.bookingIn(tx, before), null);
    });
  }

  /**
   * Checks the studio and camp a write names: each must belong to the organisation of the team (else 404).
   * Answers the studio's organisation.
   */
  private async checkPlaces(
    teamId: number,
    places: { studioId?: number | null | undefined; campId?: number | null | undefined },
  ): Promise<number | undefined> {
    if (places.campId != null && !(await repo.campOfTeam(this.db, teamId, places.campId)))
      throw errors.notFound('camp');
    if (places.studioId == null) return undefined;
    const organisationId = await repo.bookableStudio(this.db, teamId, places.studioId);
    if (organisationId === undefined) throw errors.notFound('studio');
    return organisationId;
  }

  private async bookingIn(db: Db, session: repo.SessionRow): Promise<Booking | null> {
    if (session.studioId === null || session.status === 'cancelled') return null;
    return bookingOf(session, await repo.organisationOfStudio(db, session.studioId));
  }
}
