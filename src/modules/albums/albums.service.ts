import type { Db } from '../../db/client.ts';
import type { AlbumType } from '../../db/schema/index.ts';
import { actorOf } from '../../events/actor.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { isKeyInstant, isKeyInt } from '../../shared/cursor-values.ts';
import { errors } from '../../shared/errors.ts';
import { decodeCursor, toPage, withTotal } from '../../shared/pagination.ts';
import { requireTeam, sessionUserId } from '../../shared/tenancy.ts';
import type { FilesService } from '../files/files.service.ts';
import { requireStatusFilter } from '../teams/status-filter.ts';
import { findStatusConfig } from '../teams/teams.repository.ts';
import { requireAlbumApprovals } from '../tracks/approvals/approval-gate.ts';
import { withAlbumBlocks } from '../tracks/approvals/blocked-by.ts';
import { applyPermutation, repeatedEntries } from '../tracks/permutation.ts';
import { boardTeamOf, requireAlbum } from './album-access.ts';
import { albumEvent } from './album-event.ts';
import type { AlbumEventData } from './album-events.ts';
import { lockAlbum, lockBoard } from './album-locks.ts';
import { albumDetail, coverOwner } from './album-view.ts';
import * as repo from './albums.repository.ts';
import type { AlbumSort } from './albums.schemas.ts';
import * as board from './board.repository.ts';

export type AlbumFieldsInput = {
  title?: string;
  artist?: string | null;
  type?: AlbumType;
  releaseDate?: string | null;
  label?: string | null;
  upc?: string | null;
  genre?: string | null;
  language?: string | null;
  tags?: string[];
  notes?: string | null;
};

export type AlbumListInput = {
  teamId: number;
  status?: string | undefined;
  type?: AlbumType | undefined;
  sort?: AlbumSort | undefined;
  limit: number;
  cursor?: string | undefined;
  offset?: number | undefined;
  /** Add `total` (always added with offset). */
  count?: boolean;
};

const isUpdatedCursor = (v: unknown): v is [string, number] =>
  Array.isArray(v) && v.length === 2 && isKeyInstant(v[0]) && isKeyInt(v[1]);

const isBoardCursor = (v: unknown): v is [number, number, number] =>
  Array.isArray(v) && v.length === 3 && v.every(isKeyInt);

const withTrimmedTitle = <T extends { title?: string }>(input: T): T =>
  input.title === undefined ? input : { ...input, title: input.title.trim() };

/** Albums of a team and their board: list, links, read, create, change, delete, status and order. */
export class AlbumsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: FilesService,
    private readonly events: EventLog,
  ) {}

  async list(principal: Principal, input: AlbumListInput) {
    await requireTeam(this.db, principal, input.teamId);
    if (input.offset !== undefined && input.cursor !== undefined)
      throw errors.validation([{ path: '/query/offset', message: 'cannot be combined with cursor' }]);
    await requireStatusFilter(this.db, [input.teamId], 'albums', input.status);
    const sort = input.sort ?? 'updated';
    const after =
      sort === 'updated'
        ? decodeCursor(input.cursor, isUpdatedCursor)
        : decodeCursor(input.cursor, isBoardCursor);
    const board = (await findStatusConfig(this.db, input.teamId))?.albums ?? [];
    const statusOrder = sort === 'board' ? board.map((s) => s.id) : [];
    const filter = { teamId: input.teamId, statusId: input.status, type: input.type };
    const rows = await repo.listAlbums(this.db, {
      ...filter,
      sort,
      statusOrder,
      after,
      offset: input.offset,
      limit: input.limit + 1,
    });
    const page = toPage(rows, input.limit, (last) =>
      sort === 'updated' ? [last.updatedAt.toISOString(), last.id] : [last.rank, last.position, last.id],
    );
    const items = await withAlbumBlocks(
      this.db,
      board,
      page.items.map(({ rank: _, ...album }) => album),
    );
    return withTotal({ items, nextCursor: page.nextCursor }, input.count || input.offset !== undefined, () =>
      repo.countAlbums(this.db, filter),
    );
  }

  /** For each album of the team its tracks, and for each of those tracks its albums. */
  async links(principal: Principal, teamId: number) {
    await requireTeam(this.db, principal, teamId);
    const { albums, links } = await repo.listLinks(this.db, teamId);
    const tracksOf = new Map<number, number[]>();
    const albumsOf = new Map<number, number[]>();
    for (const { albumId, trackId } of links) {
      tracksOf.set(albumId, [...(tracksOf.get(albumId) ?? []), trackId]);
      albumsOf.set(trackId, [...(albumsOf.get(trackId) ?? []), albumId]);
    }
    return {
      albums: albums.map((a) => ({ ...a, trackIds: tracksOf.get(a.id) ?? [] })),
      tracks: [...albumsOf.entries()]
        .sort(([a], [b]) => a - b)
        .map(([id, albumIds]) => ({ id, albumIds: albumIds.sort((x, y) => x - y) })),
    };
  }

  async get(principal: Principal, albumId: number) {
    await requireAlbum(this.db, principal, albumId);
    return albumDetail(this.db, this.files, albumId);
  }

  /** Creates an album at the end of the first album status of its team. */
  async create(principal: Principal, input: AlbumFieldsInput & { title: string; teamId: number }) {
    const { teamId, title, ...fields } = withTrimmedTitle(input);
    await requireTeam(this.db, principal, teamId);
    const albumId = await this.db.transaction(async (tx) => {
      const statusId = (await lockBoard(tx, teamId))?.[0]?.id;
      if (!statusId) throw errors.notFound('team');
      const position = await board.columnSize(tx, teamId, statusId);
      const album = await repo.insertAlbum(
        tx,
        { ...fields, teamId, title, statusId, position, now: this.clock.now() },
        actorOf(principal),
      );
      const payload: AlbumEventData<'album.created'> = { albumId: album.id, teamId, title, statusId };
      await this.events.record(tx, albumEvent(principal, teamId, 'album.created', album.id, payload));
      return album.id;
    });
    return albumDetail(this.db, this.files, albumId);
  }

  async update(principal: Principal, albumId: number, patch: AlbumFieldsInput) {
    const { teamId } = await requireAlbum(this.db, principal, albumId);
    await this.db.transaction(async (tx) => {
      if (!(await lockAlbum(tx, teamId, albumId))) throw errors.notFound('album');
      const changes = withTrimmedTitle(patch);
      await repo.updateAlbum(tx, albumId, changes, this.clock.now());
      const payload: AlbumEventData<'album.updated'> = { albumId, teamId, changes };
      await this.events.record(tx, albumEvent(principal, teamId, 'album.updated', albumId, payload));
    });
    return albumDetail(this.db, this.files, albumId);
  }

  /** Deletes the album and its cover; its tracks stay. */
  async remove(principal: Principal, albumId: number): Promise<void> {
    sessionUserId(principal);
    const { teamId, title } = await requireAlbum(this.db, principal, albumId);
    await this.files.transaction(async (tx) => {
      await lockBoard(tx, teamId);
      const removed = await repo.deleteAlbum(tx, albumId);
      if (!removed) throw errors.notFound('album');
      await board.closeGap(tx, teamId, removed.statusId, removed.position);
      // With its pending uploads: a cover URL handed out for the album can no longer be registered.
      const { type, id } = coverOwner(albumId);
      await this.files.deleteOfOwners(teamId, [{ type, ids: [id] }], { tx });
      const payload: AlbumEventData<'album.deleted'> = { albumId, teamId, title };
      await this.events.record(tx, albumEvent(principal, teamId, 'album.deleted', albumId, payload));
    });
  }

  /** Moves the album to the end of another status of its team's configuration. */
  async changeStatus(principal: Principal, albumId: number, status: string) {
    sessionUserId(principal);
    const { teamId } = await requireAlbum(this.db, principal, albumId);
    await this.db.transaction(async (tx) => {
      const target = (await lockBoard(tx, teamId))?.find((s) => s.id === status);
      if (!target)
        throw errors.validation([
          { path: '/body/status', message: `is not an album status of the team (${status})` },
        ]);
      const album = await lockAlbum(tx, teamId, albumId);
      if (!album) throw errors.notFound('album');
      if (album.statusId !== status) {
        await requireAlbumApprovals(tx, target, [albumId], '/body/status');
        await board.closeGap(tx, teamId, album.statusId, album.position);
        const position = await board.columnSize(tx, teamId, status);
        await repo.updateAlbum(tx, albumId, { statusId: status, position }, this.clock.now());
      }
      const payload: AlbumEventData<'album.status_changed'> = {
        albumId,
        teamId,
        from: album.statusId,
        to: status,
      };
      await this.events.record(tx, albumEvent(principal, teamId, 'album.status_changed', albumId, payload));
    });
    return albumDetail(this.db, this.files, albumId);
  }

  /** Reorders one status column of the board: `orders` must name every album of it exactly once. */
  async reorder(principal: Principal, statusId: string, orders: { albumId: number; order: number }[]) {
    const userId = sessionUserId(principal);
    const teamId = await boardTeamOf(
      this.db,
      userId,
      orders.map((o) => o.albumId),
    );
    const path = '/body/albumOrders';
    const entries = orders.map((o) => ({ id: o.albumId, order: o.order }));
    const repeated = repeatedEntries(entries, path, 'albumId');
    if (repeated.length > 0) throw errors.validation(repeated);
    return this.db.transaction(async (tx) => {
      const statuses = await lockBoard(tx, teamId);
      if (!statuses?.some((s) => s.id === statusId))
        throw errors.validation([
          { path: '/body/statusId', message: `is not an album status of the team (${statusId})` },
        ]);
      const column = new Set(await board.lockColumn(tx, teamId, statusId));
      const ordered = applyPermutation(
        entries,
        column,
        path,
        'albumId',
        `the albums of status ${statusId} in this team`,
      );
      await board.setBoardPositions(tx, ordered);
      await this.events.record(
        tx,
        albumEvent(principal, teamId, 'albums.reordered', statusId, { statusId, albumIds: ordered }),
      );
      return { statusId, albumIds: ordered };
    });
  }
}
