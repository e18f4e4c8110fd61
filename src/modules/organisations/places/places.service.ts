import type { Db } from '../../../db/client.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { sqlState } from '../../../shared/db-errors.ts';
import { errors } from '../../../shared/errors.ts';
import { toPage } from '../../../shared/pagination.ts';
import { requireOrganisation } from '../access.ts';
import { decodeNameCursor } from '../cursors.ts';
import { organisationEvent } from '../organisation-events.ts';
import { withoutNameKey } from '../organisations.service.ts';
import { canonicalTimeZone } from '../time-zone.ts';
import * as repo from './places.repository.ts';

type Page = { limit: number; cursor?: string | undefined };
type BuildingInput = { name?: string; address?: string | null; timezone?: string | null };

/** The canonical spelling of a building's time zone, or a 400 naming the field. */
function timeZoneOf(zone: string): string {
  const canonical = canonicalTimeZone(zone);
  if (!canonical)
    throw errors.validation([{ path: '/body/timezone', message: 'is not a known IANA time zone' }]);
  return canonical;
}

const buildingView = ({
  id,
  organisationId,
  name,
  address,
  timezone,
  createdAt,
  updatedAt,
}: repo.BuildingRow) => ({
  id,
  organisationId,
  name,
  address,
  timezone,
  createdAt,
  updatedAt,
});

/** A studio name the building's unique index refused is the client's conflict, not a failure. */
async function nameConflicts<T>(work: () => Promise<T>) {
  try {
    return await work();
  } catch (error) {
    if (sqlState(error) === '23505') throw errors.conflict('The building already has a studio of that name');
    throw error;
  }
}

/** Buildings of an organisation and the studios (rooms) in them: everyone reads, owners and admins change. */
export class PlacesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventLog,
  ) {}

  async listBuildings(principal: Principal, organisationId: number, page: Page) {
    await requireOrganisation(this.db, principal, organisationId);
    const rows = await repo.listBuildings(
      this.db,
      organisationId,
      page.limit + 1,
      decodeNameCursor(page.cursor),
    );
    const result = toPage(rows, page.limit, (last) => [last.nameKey, last.id]);
    return { items: result.items.map(buildingView), nextCursor: result.nextCursor };
  }

  async createBuilding(
    principal: Principal,
    organisationId: number,
    input: BuildingInput & { name: string },
  ) {
    await requireOrganisation(this.db, principal, organisationId, 'manage');
    const now = this.clock.now();
    const values = { ...this.buildingValues(input), organisationId, createdAt: now, updatedAt: now };
    return this.db.transaction(async (tx) => {
      const row = await repo.insertBuilding(tx, { ...values, name: values.name ?? input.name });
      await this.record(tx, principal, organisationId, 'building.created', 'building', row.id);
      return buildingView(row);
    });
  }

  async updateBuilding(
    principal: Principal,
    organisationId: number,
    buildingId: number,
    input: BuildingInput,
  ) {
    await requireOrganisation(this.db, principal, organisationId, 'manage');
    const changes = { ...this.buildingValues(input), updatedAt: this.clock.now() };
    return this.db.transaction(async (tx) => {
      const row = await repo.updateBuilding(tx, organisationId, buildingId, changes);
      if (!row) throw errors.notFound('building');
      await this.record(tx, principal, organisationId, 'building.updated', 'building', buildingId, {
        fields: Object.keys(input),
      });
      return buildingView(row);
    });
  }

  /** Deletes the building and its studios. */
  async removeBuilding(principal: Principal, organisationId: number, buildingId: number): Promise<void> {
    await requireOrganisation(this.db, principal, organisationId, 'manage');
    await this.db.transaction(async (tx) => {
      if (!(await repo.deleteBuilding(tx, organisationId, buildingId))) throw errors.notFound('building');
      await this.record(tx, principal, organisationId, 'building.deleted', 'building', buildingId);
    });
  }

  async listStudios(principal: Principal, organisationId: number, page: Page) {
    await requireOrganisation(this.db, principal, organisationId);
    const rows = await repo.listStudios(
      this.db,
      organisationId,
      page.limit + 1,
      decodeNameCursor(page.cursor),
    );
    const result = toPage(rows, page.limit, (last) => [last.nameKey, last.id]);
    return { items: result.items.map(withoutNameKey), nextCursor: result.nextCursor };
  }

  async createStudio(
    principal: Principal,
    organisationId: number,
    input: { buildingId: number; name: string },
  ) {
    await requireOrganisation(this.db, principal, organisationId, 'manage');
    const now = this.clock.now();
    const id = await nameConflicts(() =>
      this.db.transaction(async (tx) => {
        await this.requireBuilding(tx, organisationId, input.buildingId);
        const studioId = await repo.insertStudio(tx, {
          organisationId,
          buildingId: input.buildingId,
          name: input.name.trim(),
          createdAt: now,
          updatedAt: now,
        });
        await this.record(tx, principal, organisationId, 'studio.created', 'studio', studioId);
        return studioId;
      }),
    );
    return this.studio(organisationId, id);
  }

  async updateStudio(
    principal: Principal,
    organisationId: number,
    studioId: number,
    input: { buildingId?: number; name?: string },
  ) {
    await requireOrganisation(this.db, principal, organisationId, 'manage');
    await nameConflicts(() =>
      this.db.transaction(async (tx) => {
        if (input.buildingId !== undefined) await this.requireBuilding(tx, organisationId, input.buildingId);
        const changed = await repo.updateStudio(tx, organisationId, studioId, {
          ...(input.buildingId === undefined ? {} : { buildingId: input.buildingId }),
          ...(input.name === undefined ? {} : { name: input.name.trim() }),
          updatedAt: this.clock.now(),
        });
        if (!changed) throw errors.notFound('studio');
        await this.record(tx, principal, organisationId, 'studio.updated', 'studio', studioId, {
          fields: Object.keys(input),
        });
      }),
    );
    return this.studio(organisationId, studioId);
  }

  async removeStudio(principal: Principal, organisationId: number, studioId: number): Promise<void> {
    await requireOrganisation(this.db, principal, organisationId, 'manage');
    await this.db.transaction(async (tx) => {
      if (!(await repo.deleteStudio(tx, organisationId, studioId))) throw errors.notFound('studio');
      await this.record(tx, principal, organisationId, 'studio.deleted', 'studio', studioId);
    });
  }

  private buildingValues(input: BuildingInput) {
    return {
      ...(input.name === undefined ? {} : { name: input.name.trim() }),
      ...(input.address === undefined ? {} : { address: input.address?.trim() || null }),
      ...(input.timezone === undefined
        ? {}
        : { timezone: input.timezone === null ? null : timeZoneOf(input.timezone) }),
    };
  }

  private async requireBuilding(db: Db, organisationId: number, buildingId: number) {
    if (!(await repo.findBuilding(db, organisationId, buildingId))) throw errors.notFound('building');
  }

  private async studio(organisationId: number, studioId: number) {
    const row = await repo.findStudio(this.db, organisationId, studioId);
    if (!row) throw errors.notFound('studio');
    return withoutNameKey(row);
  }

  private record(
    tx: Db,
    principal: Principal,
    organisationId: number,
    type: string,
    subjectType: string,
    subjectId: number,
    payload?: Record<string, unknown>,
  ) {
    return this.events.record(
      tx,
      organisationEvent(principal, organisationId, {
        type,
        subject: { type: subjectType, id: subjectId },
        ...(payload ? { payload } : {}),
      }),
    );
  }
}
