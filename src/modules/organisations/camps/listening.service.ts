import type { Db } from '../../../db/client.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { isPositionCursor } from '../../../shared/cursor-values.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import { MANAGERS } from '../../../shared/tenancy.ts';
import { requireTrack } from '../../tracks/track-access.ts';
import { managesOrganisation, type OrganisationAccess } from '../access.ts';
import { organisationTeamEvent } from '../organisation-events.ts';
import { teamRoleOf } from '../organisations.repository.ts';
import { requireCampRef } from './camp-ref.ts';
import { lockCamp } from './camps.repository.ts';
import * as repo from './listening.repository.ts';
import { MAX_LISTENING_ITEMS } from './listening.schemas.ts';

type Page = { limit: number; cursor?: string | undefined };
type Camp = { id: number; organisationId: number };

/**
 * The listening queue of a camp: anyone who reads the camp submits tracks of their own teams; owners and
 * admins of the organisation order the queue and mark tracks played; a submission is withdrawn by its
 * submitter, by owners and admins of its team, or by those of the organisation.
 */
export class ListeningService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventLog,
  ) {}

  async list(principal: Principal, campRef: string, page: Page) {
    const { camp } = await requireCampRef(this.db, principal, campRef);
    const after = decodeCursor(page.cursor, isPositionCursor);
    const rows = await repo.listItems(this.db, camp.id, page.limit + 1, after);
    return toPage(rows, page.limit, (last) => [last.position, last.id]);
  }

  /** Appends a track to the end of the queue: 409 when it is queued already or the queue is full. */
  async submit(principal: Principal, campRef: string, trackId: number) {
    const { camp } = await requireCampRef(this.db, principal, campRef);
    const { track, ownerTeam } = await requireTrack(this.db, principal, trackId);
    if (!ownerTeam)
      throw errors.forbidden("Only tracks of the caller's own teams can be submitted (this one is shared)");
    const itemId = await this.db.transaction(async (tx) => {
      await this.lock(tx, camp);
      const size = await repo.queueSize(tx, camp.id);
      if (size.count >= MAX_LISTENING_ITEMS)
        throw errors.conflict(`A listening queue holds at most ${MAX_LISTENING_ITEMS} tracks`);
      const now = this.clock.now();
      const id = await repo.insertItem(tx, {
        campId: camp.id,
        trackId: track.id,
        teamId: track.teamId,
        position: size.nextPosition,
        submittedBy: principal.type === 'session' ? principal.userId : null,
        createdAt: now,
        updatedAt: now,
      });
      if (id === undefined) throw errors.conflict('The track is in the queue already');
      await this.record(tx, principal, camp, track.teamId, 'camp.listening_submitted', id, { trackId });
      return id;
    });
    return this.item(camp.id, itemId);
  }

  async setPlayed(principal: Principal, campRef: string, itemId: number, played: boolean) {
    const { camp } = await requireCampRef(this.db, principal, campRef, 'manage');
    await this.db.transaction(async (tx) => {
      const item = await repo.findItem(tx, camp.id, itemId);
      if (!item) throw errors.notFound('listening item');
      const now = this.clock.now();
      await repo.setPlayed(tx, camp.id, itemId, played ? now : null, now);
      await this.record(tx, principal, camp, item.teamId, 'camp.listening_played', itemId, { played });
    });
    return this.item(camp.id, itemId);
  }

  /** Puts the whole queue in the given order; 409 when the ids are not exactly the queue's items. */
  async reorder(principal: Principal, campRef: string, itemIds: number[]) {
    const { camp } = await requireCampRef(this.db, principal, campRef, 'manage');
    await this.db.transaction(async (tx) => {
      await this.lock(tx, camp);
      const current = new Set(await repo.itemIdsOf(tx, camp.id));
      if (current.size !== itemIds.length || itemIds.some((id) => !current.has(id)))
        throw errors.conflict(
          'itemIds must list every item of the queue once: reload the queue and try again',
        );
      await repo.reorder(tx, camp.id, itemIds, this.clock.now());
    });
    const items = await repo.listItems(this.db, camp.id, MAX_LISTENING_ITEMS);
    return { items, nextCursor: null };
  }

  async remove(principal: Principal, campRef: string, itemId: number): Promise<void> {
    const { camp, access } = await requireCampRef(this.db, principal, campRef);
    const item = await repo.findItem(this.db, camp.id, itemId);
    if (!item) throw errors.notFound('listening item');
    await this.requireWithdrawer(access, item);
    await this.db.transaction(async (tx) => {
      const removed = await repo.deleteItem(tx, camp.id, itemId);
      if (!removed) throw errors.notFound('listening item');
      await this.record(tx, principal, camp, removed.teamId, 'camp.listening_withdrawn', itemId, {
        trackId: removed.trackId,
      });
    });
  }

  private async requireWithdrawer(access: OrganisationAccess, item: repo.ListeningItemRow) {
    if (item.submittedBy === access.userId || managesOrganisation(access)) return;
    const role = await teamRoleOf(this.db, item.teamId, access.userId);
    if (!role || !MANAGERS.includes(role))
      throw errors.forbidden(
        'Only its submitter, owners and admins of its team or of the organisation withdraw a submission',
      );
  }

  private async lock(tx: Db, camp: Camp) {
    if (!(await lockCamp(tx, camp.organisationId, camp.id))) throw errors.notFound('camp');
  }

  private async item(campId: number, itemId: number) {
    const row = await repo.findItemView(this.db, campId, itemId);
    if (!row) throw errors.notFound('listening item');
    return row;
  }

  private record(
    tx: Db,
    principal: Principal,
    camp: Camp,
    teamId: number,
    type: string,
    itemId: number,
    payload: Record<string, unknown>,
  ) {
    return this.events.record(
      tx,
      organisationTeamEvent(principal, teamId, camp.organisationId, {
        type,
        subject: { type: 'camp_listening_item', id: itemId },
        payload: { campId: camp.id, ...payload },
      }),
    );
  }
}
