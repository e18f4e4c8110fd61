import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { camps } from '../../db/schema/index.ts';
import { actorOf } from '../../events/actor.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { toPage } from '../../shared/pagination.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import type { FilesService } from '../files/files.service.ts';
import { lockOrganisation, requireOrganisation } from './access.ts';
import { deleteFilesOfCamps } from './camps/camp-files.cleanup.ts';
import { decodeNameCursor } from './cursors.ts';
import { organisationEvent } from './organisation-events.ts';
import * as repo from './organisations.repository.ts';

type Page = { limit: number; cursor?: string | undefined };

/** A row without its sort key. */
export function withoutNameKey<T extends { nameKey: string }>({ nameKey: _, ...row }: T): Omit<T, 'nameKey'> {
  return row;
}
const view = withoutNameKey;

/** Organisations themselves: the caller's list, one, and (extensions) create, rename and delete. */
export class OrganisationsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: FilesService,
    private readonly events: EventLog,
  ) {}

  /** The organisations the caller is a member of, or reads through one of their teams, by name. */
  async list(principal: Principal, page: Page) {
    const userId = sessionUserId(principal);
    const rows = await repo.listReadable(this.db, userId, page.limit + 1, decodeNameCursor(page.cursor));
    const result = toPage(rows, page.limit, (last) => [last.nameKey, last.id]);
    return { items: result.items.map(view), nextCursor: result.nextCursor };
  }

  async get(principal: Principal, organisationId: number) {
    const access = await requireOrganisation(this.db, principal, organisationId);
    return this.read(access.userId, organisationId);
  }

  /** Any signed-in user creates one and becomes its owner. */
  async create(principal: Principal, input: { name: string }) {
    const userId = sessionUserId(principal);
    const row = await this.db.transaction((tx) =>
      repo.insertOrganisation(tx, { name: input.name.trim(), ownerId: userId, now: this.clock.now() }),
    );
    return {
      id: row.id,
      name: row.name,
      role: 'owner' as const,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  async rename(principal: Principal, organisationId: number, input: { name: string }) {
    const { userId } = await requireOrganisation(this.db, principal, organisationId, 'own');
    const name = input.name.trim();
    await this.db.transaction(async (tx) => {
      const row = await repo.renameOrganisation(tx, organisationId, name, this.clock.now());
      if (!row) throw errors.notFound('organisation');
      await this.events.record(
        tx,
        organisationEvent(principal, organisationId, {
          type: 'organisation.renamed',
          subject: { type: 'organisation', id: organisationId },
          payload: { name },
        }),
      );
    });
    return this.read(userId, organisationId);
  }

  /**
   * Deletes the organisation with its places, camps and their RSVPs, queues and files; its teams stay (they
   * leave it). Owners only.
   */
  async remove(principal: Principal, organisationId: number): Promise<void> {
    await requireOrganisation(this.db, principal, organisationId, 'own');
    await this.files.transaction(async (tx) => {
      if (!(await lockOrganisation(tx, organisationId))) throw errors.notFound('organisation');
      // Not the organisation's own event: those go with it (the foreign key), and this one is to stay.
      await this.events.record(tx, {
        type: 'organisation.deleted',
        subject: { type: 'organisation', id: organisationId },
        actor: actorOf(principal),
        payload: { organisationId },
      });
      const campIds = await tx
        .select({ id: camps.id })
        .from(camps)
        .where(eq(camps.organisationId, organisationId));
      await deleteFilesOfCamps(
        this.files,
        tx,
        campIds.map((c) => c.id),
      );
      await repo.deleteOrganisation(tx, organisationId);
    });
  }

  private async read(userId: string, organisationId: number) {
    const row = await repo.findOrganisation(this.db, userId, organisationId);
    if (!row) throw errors.notFound('organisation');
    return view(row);
  }
}
