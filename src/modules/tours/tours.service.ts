import type { Db } from '../../db/client.ts';
import type { TourStatus } from '../../db/schema/index.ts';
import { actorOf } from '../../events/actor.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { isKeyInt } from '../../shared/cursor-values.ts';
import { errors } from '../../shared/errors.ts';
import { decodeCursor, toPage } from '../../shared/pagination.ts';
import { requireTeam } from '../../shared/tenancy.ts';
import type { FilesService } from '../files/files.service.ts';
import { requireTour } from './tour-access.ts';
import { tourCoverOwner } from './tour-covers.repository.ts';
import { tourEvent } from './tour-events.ts';
import { type TourInput, tourValues } from './tour-input.ts';
import { tourView } from './tour-view.ts';
import * as repo from './tours.repository.ts';

export type TourListInput = {
  teamId: number;
  status?: TourStatus | undefined;
  from?: string | undefined;
  limit: number;
  cursor?: string | undefined;
};

const isStart = (value: unknown): value is string =>
  value === 'infinity' ||
  (typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    value >= '0001-01-01' &&
    !Number.isNaN(Date.parse(value)));

const isTourKey = (value: unknown): value is repo.TourKey =>
  Array.isArray(value) &&
  value.length === 2 &&
  isStart(value[0]) &&
  isKeyInt(value[1]) &&
  (value[1] as number) > 0;

/** A team's tours: list, read, create, replace and delete, each change with its event in the log. */
export class ToursService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: FilesService,
    /** The origin public cover URLs are built on. */
    private readonly baseUrl: string,
    private readonly events: EventLog,
  ) {}

  private view = (row: repo.TourRow) => tourView(this.files, this.baseUrl, row);

  /** The tour as it is now, read in `db` (the writing transaction). */
  private async current(db: Db, teamId: number, tourId: number) {
    const row = await repo.findTour(db, teamId, tourId);
    if (!row) throw errors.notFound('tour');
    return this.view(row);
  }

  /** A page of the team's tours, soonest start first; tours without dates after the dated ones. */
  async list(principal: Principal, input: TourListInput) {
    await requireTeam(this.db, principal, input.teamId);
    const after = decodeCursor(input.cursor, isTourKey);
    const rows = await repo.listTours(
      this.db,
      { teamId: input.teamId, status: input.status, from: input.from },
      after,
      input.limit + 1,
    );
    const page = toPage(rows, input.limit, repo.keyOf);
    return { items: await Promise.all(page.items.map(this.view)), nextCursor: page.nextCursor };
  }

  async get(principal: Principal, tourId: number) {
    return this.view(await requireTour(this.db, principal, tourId));
  }

  async create(principal: Principal, input: TourInput & { teamId: number }) {
    const { teamId, ...fields } = input;
    await requireTeam(this.db, principal, teamId);
    const values = tourValues(fields);
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const id = await repo.insertTour(tx, values, { teamId, actor: actorOf(principal), now });
      await this.events.record(
        tx,
        tourEvent(principal, teamId, 'tour.created', id, { name: values.name, status: values.status }),
      );
      return this.current(tx, teamId, id);
    });
  }

  /** Writes every editable field: what the body leaves out returns to its default. */
  async replace(principal: Principal, tourId: number, input: TourInput) {
    const { teamId } = await requireTour(this.db, principal, tourId);
    const values = tourValues(input);
    return this.db.transaction(async (tx) => {
      if (!(await repo.replaceTour(tx, teamId, tourId, values, this.clock.now())))
        throw errors.notFound('tour');
      await this.events.record(
        tx,
        tourEvent(principal, teamId, 'tour.updated', tourId, {
          name: values.name,
          status: values.status,
        }),
      );
      return this.current(tx, teamId, tourId);
    });
  }

  /** Deletes the tour with its covers (their bytes too) and any cover upload still open. */
  async remove(principal: Principal, tourId: number): Promise<void> {
    const { teamId } = await requireTour(this.db, principal, tourId);
    await this.files.transaction(async (tx) => {
      // Uploads first: a cover registering right now commits before this goes on, and its file goes too.
      await this.files.deleteOfOwners(teamId, [{ type: tourCoverOwner(tourId).type, ids: [tourId] }], { tx });
      const row = await repo.deleteTour(tx, teamId, tourId);
      if (!row) throw errors.notFound('tour');
      await this.events.record(tx, tourEvent(principal, teamId, 'tour.deleted', tourId, { name: row.name }));
    });
  }
}
