import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { sqlState } from '../../../shared/db-errors.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeIdCursor, toPage } from '../../../shared/pagination.ts';
import { ticketTransfer } from '../../files/file-view.ts';
import { findPendingByKey } from '../../files/files.repository.ts';
import type { FilesService } from '../../files/files.service.ts';
import { resolveMediaType } from '../../files/media-type.ts';
import { audioFileView } from '../../tracks/audio-file-view.ts';
import { requireSession } from '../session-access.ts';
import type { SessionEvents } from '../session-events.ts';
import { recordingsOwner } from '../session-owners.ts';
import { durationOf, requireRecording } from './recording-access.ts';
import * as repo from './recordings.repository.ts';

const UNIQUE_VIOLATION = '23505';

type Page = { limit: number; cursor?: string | undefined };
type UploadInput = { teamId?: number | undefined; fileName: string; fileSize: number; contentType: string };
export type RegisterInput = UploadInput & { pendingKey: string; recordingId?: number | undefined };

/**
 * Recordings of a session: uploaded audio (an upload URL, then registration, with audio facts and a waveform
 * as for track versions), or live recordings started without audio, stopped, and given their audio later.
 */
export class RecordingsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: FilesService,
    private readonly events: SessionEvents,
  ) {}

  async list(principal: Principal, sessionId: number, teamId: number | undefined, page: Page) {
    const { session } = await requireSession(this.db, principal, sessionId, 'guest', teamId);
    const rows = await repo.listRecordings(this.db, sessionId, decodeIdCursor(page.cursor), page.limit + 1);
    const result = toPage(rows, page.limit, (last) => last.id);
    return { items: await this.views(session.teamId, result.items, false), nextCursor: result.nextCursor };
  }

  /** An upload URL for a recording's audio; its pendingKey is registered with POST .../recordings. */
  async uploadUrl(principal: Principal, sessionId: number, input: UploadInput) {
    const { session, userId } = await requireSession(this.db, principal, sessionId, 'member', input.teamId);
    const { kind, contentType } = resolveMediaType(input.contentType, '/body/contentType');
    if (kind !== 'audio')
      throw errors.unsupportedFileType(`A recording is audio, not ${contentType ?? input.contentType}`);
    const ticket = await this.files.createUploadUrl({
      teamId: session.teamId,
      kind: 'audio',
      fileName: input.fileName.trim(),
      contentType,
      size: input.fileSize,
      owner: recordingsOwner(sessionId),
      createdBy: userId,
    });
    return { ...ticketTransfer(ticket), pendingKey: ticket.key };
  }

  /**
   * Registers an uploaded recording: a new recording (201), or the audio of a stopped live recording
   * (`recordingId`, 200). Answers the recording and whether it is new.
   */
  async register(principal: Principal, sessionId: number, input: RegisterInput) {
    const { session, userId } = await requireSession(this.db, principal, sessionId, 'member', input.teamId);
    const owner = recordingsOwner(sessionId);
    const pending = await findPendingByKey(this.db, session.teamId, input.pendingKey);
    if (!pending || pending.ownerType !== owner.type || pending.ownerId !== String(owner.id))
      throw errors.notFound('upload');
    // Checked before the bytes are claimed, so a mistaken request leaves the upload usable.
    if (pending.declaredSize !== input.fileSize)
      throw errors.validation([
        {
          path: '/body/fileSize',
          message: `must be the size the upload URL was asked for (${pending.declaredSize})`,
        },
      ]);
    const announced = resolveMediaType(input.contentType, '/body/contentType').contentType;
    if (announced !== undefined && announced !== pending.contentType)
      throw errors.validation([
        {
          path: '/body/contentType',
          message: `must be the type the upload URL was asked for (${pending.contentType})`,
        },
      ]);
    const target = input.recordingId;
    if (target !== undefined) await this.requireAwaitingAudio(sessionId, target);
    const prepared = await this.files.prepareRegistration({
      teamId: session.teamId,
      key: input.pendingKey,
      owner,
      kind: 'audio',
      createdBy: userId,
    });
    const recordingId = await this.files.commitRegistration(prepared, async (tx) => {
      const file = await this.files.completeRegistration(tx, prepared);
      const now = this.clock.now();
      let id = target;
      if (id === undefined) {
        id = await repo.insertRecording(tx, {
          sessionId,
          name: input.fileName.trim(),
          status: 'ready',
          fileId: file.id,
          startedAt: null,
          createdBy: userId,
          now,
        });
      } else if (!(await repo.attachAudio(tx, id, file.id, now))) {
        throw errors.conflict('This recording has its audio already');
      }
      await this.events.record(tx, principal, session, 'recording.registered', {
        recordingId: id,
        fileId: file.id,
      });
      return id;
    });
    return {
      recording: await this.viewOf(session.teamId, sessionId, recordingId),
      created: target === undefined,
    };
  }

  /** Starts a recording without audio (`live`); one runs at a time per session. */
  async startLive(
    principal: Principal,
    sessionId: number,
    input: { teamId?: number | undefined; name?: string | undefined },
  ) {
    const { session, userId } = await requireSession(this.db, principal, sessionId, 'member', input.teamId);
    const now = this.clock.now();
    let id: number;
    try {
      id = await this.db.transaction(async (tx) => {
        const created = await repo.insertRecording(tx, {
          sessionId,
          name: input.name?.trim() ?? 'Live recording',
          status: 'live',
          fileId: null,
          startedAt: now,
          createdBy: userId,
          now,
        });
        await this.events.record(tx, principal, session, 'recording.started', { recordingId: created });
        return created;
      });
    } catch (error) {
      if (sqlState(error) === UNIQUE_VIOLATION)
        throw errors.conflict('A recording is already running in this session; stop it first');
      throw error;
    }
    return this.viewOf(session.teamId, sessionId, id);
  }

  async stop(principal: Principal, ids: { sessionId: number; recordingId: number }, teamId?: number) {
    const { session } = await requireRecording(this.db, principal, ids, 'member', teamId);
    await this.db.transaction(async (tx) => {
      if (!(await repo.stopRecording(tx, ids.sessionId, ids.recordingId, this.clock.now())))
        throw errors.conflict('This recording is not running');
      await this.events.record(tx, principal, session, 'recording.stopped', { recordingId: ids.recordingId });
    });
    return this.viewOf(session.teamId, ids.sessionId, ids.recordingId);
  }

  private async requireAwaitingAudio(sessionId: number, recordingId: number): Promise<void> {
    const recording = await repo.findRecording(this.db, sessionId, recordingId);
    if (!recording) throw errors.notFound('recording');
    if (recording.status === 'live') throw errors.conflict('This recording is still running; stop it first');
    if (recording.fileId !== null || recording.status === 'ready')
      throw errors.conflict('This recording has its audio already');
  }

  private async viewOf(teamId: number, sessionId: number, recordingId: number) {
    const recording = await repo.findRecording(this.db, sessionId, recordingId);
    if (!recording) throw errors.notFound('recording');
    const [view] = await this.views(teamId, [recording], true);
    return view!;
  }

  private async views(teamId: number, rows: repo.RecordingRow[], withPeaks: boolean) {
    const fileIds = rows.flatMap((r) => (r.fileId === null ? [] : [r.fileId]));
    const files = new Map((await this.files.getMany(teamId, fileIds)).map((f) => [f.id, f]));
    return Promise.all(
      rows.map(async (row) => {
        const { audioSeconds: _, fileId, ...recording } = row;
        const file = fileId === null ? undefined : files.get(fileId);
        return {
          ...recording,
          durationSeconds: durationOf(row),
          audio: file ? await audioFileView(this.files, file, { withPeaks }) : null,
        };
      }),
    );
  }
}
