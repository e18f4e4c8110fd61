import type { Db } from '../../db/client.ts';
import { actorOf } from '../../events/actor.ts';
import type { EventLog } from '../../events/event-log.ts';
import { confirmCaller, type Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { isKeyInstant, isKeyInt, isKeyText } from '../../shared/cursor-values.ts';
import { errors } from '../../shared/errors.ts';
import { decodeCursor, toPage, withTotal } from '../../shared/pagination.ts';
import { requireTeam, sessionUserId } from '../../shared/tenancy.ts';
import { takeTrackOffTeamAlbums } from '../albums/album-tracks.repository.ts';
import { ticketTransfer } from '../files/file-view.ts';
import type { FilesService } from '../files/files.service.ts';
import { requireStatusFilter } from '../teams/status-filter.ts';
import { requireTrackApprovals } from './approvals/approval-gate.ts';
import { withTrackBlocks } from './approvals/blocked-by.ts';
import { coverView, currentCoverView } from './covers/covers.service.ts';
import { applyPermutation, repeatedEntries } from './permutation.ts';
import { teamEvent, teamEventRecorder } from './team-event.ts';
import { boardTeamOfTracks, requireTrackForChange } from './track-access.ts';
import { lockTrackBoard, requireBoardStatus } from './track-board.ts';
import { countTracks } from './track-counts.ts';
import type { TRACK_EVENTS } from './track-events.ts';
import { deleteTrackFiles } from './track-files.ts';
import { linksByKind, linkView } from './track-links.ts';
import { listTeamIdsOfUser } from './track-teams.ts';
import * as repo from './tracks.repository.ts';
import { audioOwner } from './version-audio.ts';
import { setVersionAudioKey } from './versions/versions.repository.ts';

export type TrackPatch = {
  title?: string;
  artist?: string | null;
  genre?: string | null;
  tags?: string[];
  bpm?: number | null;
  key?: string | null;
  language?: string | null;
  isrc?: string | null;
  label?: string | null;
  distributor?: string | null;
  explicit?: boolean | null;
  lyrics?: string | null;
  notes?: string | null;
  releaseDate?: string | null;
};

export type TrackListInput = {
  teamId?: number | undefined;
  status?: string | undefined;
  q?: string | undefined;
  sort?: repo.TrackSort | undefined;
  limit: number;
  cursor?: string | undefined;
  /** Add `total`, the number of tracks the whole filtered list holds. */
  count?: boolean;
};

const isCursor = (v: unknown): v is [string, number] =>
  Array.isArray(v) && v.length === 2 && isKeyText(v[0]) && isKeyInt(v[1]);

/** Tracks themselves: list, read, change, delete and restore, status and board order, sharing, links. */
export class TracksService {
  private readonly record;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: Pick<
      FilesService,
      'createUploadUrl' | 'deleteOfOwners' | 'downloadUrl' | 'transaction'
    >,
    private readonly events: EventLog,
  ) {
    this.record = teamEventRecorder<typeof TRACK_EVENTS>(events, 'track', (p) => p.trackId);
  }

  /**
   * Creates a track in the team's first status with its first version, and the upload URL for that
   * version's audio. When no URL can be issued (file type, quota), the track is not kept (and no event is
   * recorded: the event is written with the upload key, once the track stays).
   */
  async create(
    principal: Principal,
    input: { title: string; teamId: number; audioFileName: string; audioFileSize?: number | undefined },
  ) {
    const userId = sessionUserId(principal);
    await requireTeam(this.db, principal, input.teamId);
    const fileName = input.audioFileName.trim();
    const { track, version } = await this.db.transaction(async (tx) => {
      const statusId = (await lockTrackBoard(tx, input.teamId))[0]?.id;
      if (!statusId) throw errors.notFound('team');
      const created = await repo.insertTrackWithVersion(
        tx,
        {
          teamId: input.teamId,
          statusId,
          title: input.title.trim(),
          audioFileName: fileName,
          now: this.clock.now(),
        },
        actorOf(principal),
      );
      return created;
    });
    let ticket: Awaited<ReturnType<FilesService['createUploadUrl']>>;
    try {
      ticket = await this.files.createUploadUrl({
        teamId: input.teamId,
        kind: 'audio',
        fileName,
        size: input.audioFileSize,
        owner: audioOwner(version.id),
        createdBy: userId,
      });
    } catch (error) {
      await repo.deleteTrack(this.db, track.id);
      throw error;
    }
    await this.db.transaction(async (tx) => {
      await setVersionAudioKey(tx, version.id, ticket.key);
      await this.record(tx, principal, 'track.created', {
        trackId: track.id,
        teamId: input.teamId,
        versionId: version.id,
        title: track.title,
        statusId: track.statusId,
      });
    });

    return {
      ...(await this.detail(this.db, track.id)),
      versionId: version.id,
      upload: { ...ticketTransfer(ticket), fileKey: ticket.key },
    };
  }

  /**
   * One statement when no status is asked for: the page, the caller's membership and whether their session
   * or key is active. An empty page of a team tells nothing of membership, so the team is checked then.
   */
  async list(principal: Principal, input: TrackListInput) {
    const { teamId, status } = input;
    if (principal.type === 'key' && teamId !== undefined) await requireTeam(this.db, principal, teamId);
    if (status !== undefined)
      await requireStatusFilter(this.db, await this.teamsListed(principal, teamId), 'tracks', status);
    const sort = input.sort ?? 'updated';
    const after = decodeCursor(input.cursor, isCursor);
    if (after && sort === 'updated' && !isKeyInstant(after[0]))
      throw errors.validation([{ path: '/query/cursor', message: 'is not a cursor this endpoint issued' }]);
    const caller: repo.ListCaller =
      principal.type === 'key'
        ? { type: 'key', keyId: principal.keyId, teamId: principal.teamId }
        : { type: 'session', userId: principal.userId, sessionId: principal.sessionId, teamId };
    const rows = await repo.listTracks(this.db, {
      caller,
      now: principal.type === 'session' ? (principal.verifiedAt ?? this.clock.now()) : this.clock.now(),
      statusId: status,
      q: input.q,
      sort,
      after,
      limit: input.limit + 1,
    });
    if (rows[0]) confirmCaller(principal, rows[0].callerActive);
    else if (teamId !== undefined) await requireTeam(this.db, principal, teamId);
    // Items carry `titleKey` and `callerActive` too; the response schema leaves them out.
    const page = toPage(rows, input.limit, (last): [string, number] =>
      sort === 'updated' ? [last.updatedAt.toISOString(), last.id] : [last.titleKey, last.id],
    );
    const items = await withTrackBlocks(this.db, page.items);
    // The caller's access to the teams is confirmed by now (the page, or requireTeam for an empty one).
    return withTotal({ ...page, items }, input.count, async () =>
      countTracks(this.db, {
        teamIds: await this.teamsListed(principal, teamId),
        statusId: status,
        q: input.q,
      }),
    );
  }

  /** The teams a list reads, for a status filter: `teamId` (once the caller is shown to be in it), or all theirs. */
  private async teamsListed(principal: Principal, teamId: number | undefined): Promise<number[]> {
    if (teamId !== undefined) {
      await requireTeam(this.db, principal, teamId);
      return [teamId];
    }
    return principal.type === 'key' ? [principal.teamId] : listTeamIdsOfUser(this.db, principal.userId);
  }

  /** One statement: the caller's session, their access to the track, the track, its links and cover file. */
  async get(principal: Principal, trackId: number) {
    const row = await repo.readTrack(this.db, principal, trackId, this.clock.now());
    if (!row) throw errors.notFound('track');
    confirmCaller(principal, row.callerActive);
    const cover =
      row.coverFileFound === null
        ? null
        : await coverView(this.files, row.coverFileFound, {
            key: row.coverFileKey!,
            originalName: row.coverFileName!,
            contentType: row.coverFileType!,
          });
    // The row itself answers (no copy on this hot path): the response schema leaves out what only this
    // method reads (links, the cover file's columns, callerActive).
    return Object.assign(row, { cover, ...linksByKind(row.links) });
  }

  private async view(db: Db, trackId: number): Promise<repo.TrackView> {
    const track = await repo.findTrackView(db, trackId);
    if (!track) throw errors.notFound('track');
    return track;
  }

  private async detail(db: Db, trackId: number) {
    const track = await this.view(db, trackId);
    const [links, cover] = await Promise.all([
      repo.listLinks(db, trackId),
      currentCoverView(db, this.files, track),
    ]);
    return { ...track, cover, ...linksByKind(links) };
  }

  async update(principal: Principal, trackId: number, patch: TrackPatch) {
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'owner');
    const { key, title, ...rest } = patch;
    const fields: repo.TrackFields = { ...rest };
    if (title !== undefined) fields.title = title.trim();
    if (key !== undefined) fields.musicalKey = key;
    if (fields.isrc) fields.isrc = fields.isrc.replaceAll('-', '');
    return this.db.transaction(async (tx) => {
      await repo.updateTrack(tx, trackId, fields, this.clock.now());
      const changes = { ...patch, ...(fields.title === undefined ? {} : { title: fields.title }) };
      if (fields.isrc !== undefined) changes.isrc = fields.isrc;
      await this.record(tx, principal, 'track.updated', { trackId, teamId: track.teamId, changes });
      return this.detail(tx, trackId);
    });
  }

  async remove(principal: Principal, trackId: number, mode: 'soft' | 'hard'): Promise<void> {
    const access = await requireTrackForChange(this.db, principal, trackId, 'owner', {
      deleted: mode === 'hard',
    });
    // Through the files service, so the blobs of a hard delete go right after the commit.
    await this.files.transaction(async (tx) => {
      if (mode === 'hard') {
        await deleteTrackFiles(this.files, tx, access.track.teamId, trackId);
        await repo.deleteTrack(tx, trackId);
      } else await repo.updateTrack(tx, trackId, { deletedAt: this.clock.now() }, this.clock.now());
      await this.record(tx, principal, 'track.deleted', { trackId, teamId: access.track.teamId, mode });
    });
  }

  async restore(principal: Principal, trackId: number) {
    const access = await requireTrackForChange(this.db, principal, trackId, 'owner', { deleted: true });
    if (access.track.deletedAt === null) throw errors.conflict('The track is not deleted');
    return this.db.transaction(async (tx) => {
      await repo.updateTrack(tx, trackId, { deletedAt: null }, this.clock.now());
      await this.record(tx, principal, 'track.restored', { trackId, teamId: access.track.teamId });
      return this.detail(tx, trackId);
    });
  }

  async changeStatus(principal: Principal, trackId: number, status: string) {
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'owner');
    return this.db.transaction(async (tx) => {
      const target = await requireBoardStatus(tx, track.teamId, status, '/body/status');
      if (track.statusId !== status) {
        await requireTrackApprovals(tx, target, [trackId], '/body/status');
        await repo.moveTrackToStatus(tx, track, status, this.clock.now());
      }
      await this.record(tx, principal, 'track.status_changed', {
        trackId,
        teamId: track.teamId,
        from: track.statusId,
        to: status,
      });
      return this.detail(tx, trackId);
    });
  }

  /** Reorders one status column: `orders` must name every live track of it exactly once. */
  async reorder(principal: Principal, statusId: string, orders: { trackId: number; order: number }[]) {
    sessionUserId(principal);
    const teamId = await boardTeamOfTracks(
      this.db,
      principal,
      orders.map((o) => o.trackId),
    );
    const entries = orders.map((o) => ({ id: o.trackId, order: o.order }));
    const repeated = repeatedEntries(entries, '/body/trackOrders', 'trackId');
    if (repeated.length > 0) throw errors.validation(repeated);
    return this.db.transaction(async (tx) => {
      await requireBoardStatus(tx, teamId, statusId, '/body/statusId');
      const column = new Set(await repo.lockStatusColumn(tx, teamId, statusId));
      const ordered = applyPermutation(
        entries,
        column,
        '/body/trackOrders',
        'trackId',
        `the tracks of status ${statusId} in this team`,
      );
      await repo.setPositions(tx, ordered);
      await this.events.record(
        tx,
        teamEvent(principal, teamId, 'tracks.reordered', subject(statusId), { statusId, trackIds: ordered }),
      );
      return { statusId, trackIds: ordered };
    });
  }

  /**
   * Shares a track with another team of the caller; both teams then hold it. Owners and admins of the owning
   * team only: a team the track is shared with cannot pass it on.
   */
  async share(principal: Principal, trackId: number, teamId: number) {
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'manage');
    if (principal.type === 'key') {
      if (teamId !== principal.teamId) throw errors.notFound('team');
    } else await requireTeam(this.db, principal, teamId);
    return this.db.transaction(async (tx) => {
      const added = await repo.shareTrack(
        tx,
        trackId,
        teamId,
        principal.type === 'session' ? principal.userId : null,
      );
      if (added) {
        // The owning team's event: the other team is named by its id only, and is not told.
        await this.record(tx, principal, 'track.shared', {
          trackId,
          teamId: track.teamId,
          sharedWithTeamId: teamId,
        });
      }
      const view = await this.view(tx, trackId);
      return { trackId, teamIds: view.teamIds };
    });
  }

  /**
   * Ends the share of a track with a team (owners and admins of the owning team): that team stops holding it
   * and it leaves that team's albums. The owning team itself cannot be unshared.
   */
  async unshare(principal: Principal, trackId: number, teamId: number): Promise<void> {
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'manage');
    if (teamId === track.teamId)
      throw errors.validation(
        [{ path: '/params/teamId', message: 'is the team that owns the track; delete the track instead' }],
        'The owning team always holds its track',
      );
    await this.db.transaction(async (tx) => {
      if (!(await repo.unshareTrack(tx, trackId, teamId))) throw errors.notFound('share with this team');
      // The other team's albums are not the owning team's to hear of.
      await takeTrackOffTeamAlbums(tx, teamId, trackId, this.clock.now());
      await this.record(tx, principal, 'track.unshared', {
        trackId,
        teamId: track.teamId,
        sharedWithTeamId: teamId,
      });
    });
  }

  async addLink(
    principal: Principal,
    trackId: number,
    kind: 'reference' | 'inspiration',
    input: { url: string; platform?: string },
  ) {
    const { track } = await requireTrackForChange(this.db, principal, trackId, 'owner');
    return this.db.transaction(async (tx) => {
      const link = await repo.insertLink(
        tx,
        { trackId, kind, url: input.url, platform: input.platform?.trim().toLowerCase() ?? null },
        actorOf(principal),
      );
      await this.events.record(
        tx,
        teamEvent(principal, track.teamId, `track.${kind}_added`, subject(trackId), { linkId: link.id }),
      );
      return linkView(link);
    });
  }
}

const subject = (id: number | string) => ({ type: 'track', id });
