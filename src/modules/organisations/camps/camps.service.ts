import type { Db } from '../../../db/client.ts';
import type { CampRsvpStatus } from '../../../db/schema/index.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { sqlState } from '../../../shared/db-errors.ts';
import { errors } from '../../../shared/errors.ts';
import { toPage } from '../../../shared/pagination.ts';
import { sessionUserId } from '../../../shared/tenancy.ts';
import type { FilesService } from '../../files/files.service.ts';
import { requireOrganisation } from '../access.ts';
import { decodeTripleCursor } from '../cursors.ts';
import { organisationEvent } from '../organisation-events.ts';
import { deleteFilesOfCamps } from './camp-files.cleanup.ts';
import { checkCampInput, insertCampWithSlug, SLUG_TAKEN } from './camp-input.ts';
import * as repo from './camps.repository.ts';

type Page = { limit: number; cursor?: string | undefined };
type CampInput = {
  name?: string;
  slug?: string;
  startsOn?: string;
  endsOn?: string;
  location?: string | null;
};

function campView(row: repo.CampRow & { myRsvp: CampRsvpStatus | null }) {
  const { id, organisationId, name, slug, startsOn, endsOn, location, myRsvp, createdAt, updatedAt } = row;
  return { id, organisationId, name, slug, startsOn, endsOn, location, myRsvp, createdAt, updatedAt };
}

/** A slug change another camp's slug refused is the client's conflict. */
async function slugConflicts<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (sqlState(error) === '23505') throw errors.conflict(SLUG_TAKEN);
    throw error;
  }
}

/**
 * Camps of an organisation: readers list and read them and answer (RSVP); owners and admins create, change
 * and delete them. Answers emit `camp.rsvp.updated` to the organisation's webhook endpoints.
 */
export class CampsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: FilesService,
    private readonly events: EventLog,
  ) {}

  private today(): string {
    return this.clock.now().toISOString().slice(0, 10);
  }

  async listOfOrganisation(principal: Principal, organisationId: number, page: Page) {
    const { userId } = await requireOrganisation(this.db, principal, organisationId);
    const rows = await repo.listCampsOfOrganisation(this.db, organisationId, this.listInput(userId, page));
    return this.page(rows, page.limit);
  }

  /** Every camp the caller can see (of the organisations they read), upcoming first. */
  async listReadable(principal: Principal, page: Page) {
    const rows = await repo.listReadableCamps(this.db, this.listInput(sessionUserId(principal), page));
    return this.page(rows, page.limit);
  }

  async get(principal: Principal, organisationId: number, campId: number) {
    const { userId } = await requireOrganisation(this.db, principal, organisationId);
    return this.detail(organisationId, campId, userId);
  }

  async create(
    principal: Principal,
    organisationId: number,
    input: CampInput & { name: string; startsOn: string; endsOn: string },
  ) {
    const { userId } = await requireOrganisation(this.db, principal, organisationId, 'manage');
    checkCampInput(input);
    const now = this.clock.now();
    const values = {
      organisationId,
      name: input.name.trim(),
      startsOn: input.startsOn,
      endsOn: input.endsOn,
      location: input.location?.trim() || null,
      createdAt: now,
      updatedAt: now,
    };
    const camp = await this.db.transaction(async (tx) => {
      const row = await insertCampWithSlug(tx, values, input.slug);
      await this.record(tx, principal, organisationId, 'camp.created', row.id, { slug: row.slug });
      return row;
    });
    return this.detail(organisationId, camp.id, userId);
  }

  async update(principal: Principal, organisationId: number, campId: number, input: CampInput) {
    const { userId } = await requireOrganisation(this.db, principal, organisationId, 'manage');
    await slugConflicts(() =>
      this.db.transaction(async (tx) => {
        const current = await repo.lockCamp(tx, organisationId, campId);
        if (!current) throw errors.notFound('camp');
        checkCampInput({
          slug: input.slug,
          startsOn: input.startsOn ?? current.startsOn,
          endsOn: input.endsOn ?? current.endsOn,
        });
        await repo.updateCamp(tx, organisationId, campId, {
          ...(input.name === undefined ? {} : { name: input.name.trim() }),
          ...(input.slug === undefined ? {} : { slug: input.slug }),
          ...(input.startsOn === undefined ? {} : { startsOn: input.startsOn }),
          ...(input.endsOn === undefined ? {} : { endsOn: input.endsOn }),
          ...(input.location === undefined ? {} : { location: input.location?.trim() || null }),
          updatedAt: this.clock.now(),
        });
        await this.record(tx, principal, organisationId, 'camp.updated', campId, {
          fields: Object.keys(input),
        });
      }),
    );
    return this.detail(organisationId, campId, userId);
  }

  /** Deletes the camp with its answers, listening queue and shared files (their bytes too). */
  async remove(principal: Principal, organisationId: number, campId: number): Promise<void> {
    await requireOrganisation(this.db, principal, organisationId, 'manage');
    await this.files.transaction(async (tx) => {
      if (!(await repo.lockCamp(tx, organisationId, campId))) throw errors.notFound('camp');
      await this.record(tx, principal, organisationId, 'camp.deleted', campId);
      await deleteFilesOfCamps(this.files, tx, [campId]);
      await repo.deleteCamp(tx, campId);
    });
  }

  /**
   * The caller's answer to the camp, new or changed. A change (or a first answer) is recorded and emits
   * `camp.rsvp.updated`; sending the same answer again changes nothing and emits nothing.
   */
  async rsvp(principal: Principal, organisationId: number, campId: number, status: CampRsvpStatus) {
    const { userId } = await requireOrganisation(this.db, principal, organisationId);
    return this.db.transaction(async (tx) => {
      if (!(await repo.lockCamp(tx, organisationId, campId))) throw errors.notFound('camp');
      const previous = await repo.findRsvp(tx, campId, userId);
      const row =
        previous?.status === status
          ? previous
          : await repo.upsertRsvp(tx, { campId, userId, status, now: this.clock.now() });
      const answer = {
        organisationId,
        campId,
        userId,
        status: row.status,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
      };
      if (previous?.status === status) return answer;
      await this.record(tx, principal, organisationId, 'camp.rsvp.updated', campId, {
        ...answer,
        previousStatus: previous?.status ?? null,
      });
      return answer;
    });
  }

  private listInput(userId: string, page: Page) {
    return { userId, today: this.today(), limit: page.limit + 1, after: decodeTripleCursor(page.cursor) };
  }

  private page(rows: Awaited<ReturnType<typeof repo.listReadableCamps>>, limit: number) {
    const result = toPage(rows, limit, (last) => [last.rank, last.day, last.id]);
    return { items: result.items.map(campView), nextCursor: result.nextCursor };
  }

  private async detail(organisationId: number, campId: number, userId: string) {
    const row = await repo.findCamp(this.db, organisationId, campId, userId);
    if (!row) throw errors.notFound('camp');
    return { ...campView(row), rsvpCounts: await repo.rsvpCounts(this.db, campId) };
  }

  private record(
    tx: Db,
    principal: Principal,
    organisationId: number,
    type: string,
    campId: number,
    payload?: Record<string, unknown>,
  ) {
    return this.events.record(
      tx,
      organisationEvent(principal, organisationId, {
        type,
        subject: { type: 'camp', id: campId },
        ...(payload ? { payload } : {}),
      }),
    );
  }
}
