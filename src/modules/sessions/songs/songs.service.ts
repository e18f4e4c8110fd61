import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { isKeyInstant, isKeyInt } from '../../../shared/cursor-values.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import { lockHeldTracks } from '../../albums/album-tracks.repository.ts';
import { requireSession } from '../session-access.ts';
import type { SessionEvents } from '../session-events.ts';
import * as repo from './songs.repository.ts';

const isSongKey = (value: unknown): value is repo.SongKey =>
  Array.isArray(value) && value.length === 2 && isKeyInstant(value[0]) && isKeyInt(value[1]) && value[1] > 0;

/** Tracks of the team linked to a session. */
export class SongsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: SessionEvents,
  ) {}

  async list(
    principal: Principal,
    sessionId: number,
    teamId: number | undefined,
    page: { limit: number; cursor?: string },
  ) {
    const { session } = await requireSession(this.db, principal, sessionId, 'guest', teamId);
    const rows = await repo.listSongs(this.db, session, {
      after: decodeCursor(page.cursor, isSongKey),
      limit: page.limit + 1,
    });
    return toPage(rows, page.limit, (last): repo.SongKey => [last.addedAt.toISOString(), last.trackId]);
  }

  /** Links a track the team holds; answers the song and whether it is new (linking again changes nothing). */
  async add(
    principal: Principal,
    sessionId: number,
    input: { trackId: number; teamId?: number | undefined },
  ) {
    const { session, userId } = await requireSession(this.db, principal, sessionId, 'member', input.teamId);
    return this.db.transaction(async (tx) => {
      if (!(await lockHeldTracks(tx, session.teamId, [input.trackId])).has(input.trackId))
        throw errors.notFound('track');
      const created = await repo.insertSong(tx, {
        sessionId,
        trackId: input.trackId,
        addedBy: userId,
        addedAt: this.clock.now(),
      });
      if (created) await this.events.record(tx, principal, session, 'song.added', { trackId: input.trackId });
      const [song] = await repo.listSongs(tx, session, { limit: 1, only: input.trackId });
      return { song: song!, created };
    });
  }

  async remove(principal: Principal, sessionId: number, trackId: number, teamId?: number): Promise<void> {
    const { session } = await requireSession(this.db, principal, sessionId, 'member', teamId);
    await this.db.transaction(async (tx) => {
      if (!(await repo.deleteSong(tx, sessionId, trackId))) throw errors.notFound('song');
      await this.events.record(tx, principal, session, 'song.removed', { trackId });
    });
  }
}
