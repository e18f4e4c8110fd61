import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { isKeyInstant, isKeyInt } from '../../../shared/cursor-values.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import type { FilesService } from '../../files/files.service.ts';
import { PLAY_REPEAT_SECONDS, PLAY_TOPIC, parsePlaySubject } from '../play-marks.ts';
import { requireVersion } from '../track-access.ts';
import * as repo from './plays.repository.ts';

const isCursor = (v: unknown): v is [string, number] =>
  Array.isArray(v) && v.length === 2 && isKeyInstant(v[0]) && isKeyInt(v[1]);

/**
 * Plays of versions: the stream URL of a version's audio carries a signed play mark (see playMark); the files
 * area hands the mark back when the URL is fetched from its first byte, and a play is recorded here.
 */
export class PlaysService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    files: Pick<FilesService, 'marks'>,
  ) {
    files.marks.on(PLAY_TOPIC, (subject) => this.played(subject));
  }

  /** Who played the version and when, newest first. */
  async list(
    principal: Principal,
    trackId: number,
    versionId: number,
    page: { limit: number; cursor?: string | undefined },
  ) {
    await requireVersion(this.db, principal, trackId, versionId);
    const rows = await repo.listPlays(
      this.db,
      versionId,
      page.limit + 1,
      decodeCursor(page.cursor, isCursor),
    );
    return toPage(rows, page.limit, (last) => [last.playedAt.toISOString(), last.id]);
  }

  private async played(subject: string): Promise<void> {
    const play = parsePlaySubject(subject);
    if (!play) return;
    await repo.insertPlay(this.db, play.versionId, play.listener, this.clock.now(), PLAY_REPEAT_SECONDS);
  }
}
