import type { Db } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { type ErrorDetail, errors } from '../../shared/errors.ts';
import { pageOfList } from '../../shared/pagination.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import type { FilesService } from '../files/files.service.ts';
import { applyPermutation, repeatedEntries } from '../tracks/permutation.ts';
import { requireAlbum } from './album-access.ts';
import { mergeCollaborators, personOrder } from './album-collaborators.ts';
import { albumEvent } from './album-event.ts';
import type { AlbumEventData } from './album-events.ts';
import { lockAlbum } from './album-locks.ts';
import * as repo from './album-tracks.repository.ts';
import { MAX_ALBUM_TRACKS } from './album-tracks.schemas.ts';
import { albumDetail } from './album-view.ts';
import { updateAlbum } from './albums.repository.ts';

function repeatedIds(ids: number[], path: string): ErrorDetail[] {
  const seen = new Set<number>();
  return ids.flatMap((id, i) => {
    if (seen.has(id)) return [{ path: `${path}/${i}`, message: 'is listed twice' }];
    seen.add(id);
    return [];
  });
}

/**
 * The track list of an album: add, remove, reorder, and the people who worked on it. Changes of one album's
 * list run one at a time (the album row is locked), so positions stay gapless and unique.
 */
export class AlbumTracksService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: FilesService,
    private readonly events: EventLog,
  ) {}

  /**
   * Appends tracks in the order given. Each must be held by the album's team (its own or shared with it):
   * others are 400, like a repeated id; a track already on the album is 409.
   */
  async add(principal: Principal, albumId: number, trackIds: number[]) {
    const userId = sessionUserId(principal);
    const { teamId } = await requireAlbum(this.db, principal, albumId);
    const path = '/body/trackIds';
    const repeated = repeatedIds(trackIds, path);
    if (repeated.length > 0) throw errors.validation(repeated);
    await this.db.transaction(async (tx) => {
      if (!(await lockAlbum(tx, teamId, albumId))) throw errors.notFound('album');
      const held = await repo.lockHeldTracks(tx, teamId, trackIds);
      const unknown = trackIds.flatMap((id, i) =>
        held.has(id)
          ? []
          : [{ path: `${path}/${i}`, message: 'is not a track of this team or shared with it' }],
      );
      if (unknown.length > 0) throw errors.validation(unknown);
      const entries = await repo.lockEntries(tx, albumId);
      const onAlbum = new Set(entries.map((e) => e.trackId));
      const already = trackIds.filter((id) => onAlbum.has(id));
      if (already.length > 0)
        throw errors.conflict(
          `Already on the album: track${already.length > 1 ? 's' : ''} ${already.join(', ')}`,
        );
      if (entries.length + trackIds.length > MAX_ALBUM_TRACKS)
        throw errors.conflict(`An album holds at most ${MAX_ALBUM_TRACKS} tracks`);
      const start = (entries.at(-1)?.position ?? -1) + 1;
      const now = this.clock.now();
      await repo.appendTracks(tx, albumId, start, trackIds, userId, now);
      await updateAlbum(tx, albumId, {}, now);
      const payload: AlbumEventData<'album.tracks_added'> = { albumId, teamId, trackIds };
      await this.events.record(tx, albumEvent(principal, teamId, 'album.tracks_added', albumId, payload));
    });
    return albumDetail(this.db, this.files, albumId);
  }

  /** Takes a track off the album (the track itself stays). */
  async remove(principal: Principal, albumId: number, trackId: number): Promise<void> {
    sessionUserId(principal);
    const { teamId } = await requireAlbum(this.db, principal, albumId);
    await this.db.transaction(async (tx) => {
      if (!(await lockAlbum(tx, teamId, albumId))) throw errors.notFound('album');
      if (!(await repo.removeTrack(tx, albumId, trackId))) throw errors.notFound('track on this album');
      await updateAlbum(tx, albumId, {}, this.clock.now());
      const payload: AlbumEventData<'album.track_removed'> = { albumId, teamId, trackId };
      await this.events.record(tx, albumEvent(principal, teamId, 'album.track_removed', albumId, payload));
    });
  }

  /**
   * Reorders the album: `orders` must name every (live) track on it exactly once. Soft-deleted tracks, which
   * the album does not show, go after the others.
   */
  async reorder(principal: Principal, albumId: number, orders: { trackId: number; order: number }[]) {
    sessionUserId(principal);
    const { teamId } = await requireAlbum(this.db, principal, albumId);
    const path = '/body/trackOrders';
    const entries = orders.map((o) => ({ id: o.trackId, order: o.order }));
    const repeated = repeatedEntries(entries, path, 'trackId');
    if (repeated.length > 0) throw errors.validation(repeated);
    return this.db.transaction(async (tx) => {
      if (!(await lockAlbum(tx, teamId, albumId))) throw errors.notFound('album');
      const rows = await repo.lockEntries(tx, albumId);
      const live = new Set(rows.filter((r) => r.live).map((r) => r.trackId));
      const ordered = applyPermutation(entries, live, path, 'trackId', 'the tracks of this album');
      const hidden = rows.filter((r) => !r.live).map((r) => r.trackId);
      const now = this.clock.now();
      await repo.setTrackPositions(tx, albumId, [...ordered, ...hidden]);
      await updateAlbum(tx, albumId, {}, now);
      await this.events.record(
        tx,
        albumEvent(principal, teamId, 'album.tracks_reordered', albumId, { trackIds: ordered }),
      );
      return { albumId, trackIds: ordered };
    });
  }

  /** Everyone who worked on a track of the album, once per person, with every role they had. */
  async collaborators(
    principal: Principal,
    albumId: number,
    page: { limit: number; cursor?: string | undefined },
  ) {
    await requireAlbum(this.db, principal, albumId);
    const rows = await repo.listCollaboratorsOfAlbum(this.db, albumId);
    return pageOfList(mergeCollaborators(rows), page, personOrder);
  }
}
