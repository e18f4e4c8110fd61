import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { isKeyInt, isKeyNumber } from '../../../shared/cursor-values.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import { durationOf, requireRecording } from '../recordings/recording-access.ts';
import type { RecordingRow } from '../recordings/recordings.repository.ts';
import type { SessionEvents } from '../session-events.ts';
import { MARKER_EXPORTS } from './marker-exports.ts';
import * as repo from './markers.repository.ts';
import { DEFAULT_MARKER_COLOR, type MarkerExportFormat } from './markers.schemas.ts';

/** The most markers an export holds. */
export const MAX_EXPORTED_MARKERS = 10_000;

type Ids = { sessionId: number; recordingId: number };
type Page = { limit: number; cursor?: string | undefined };

const isMarkerKey = (value: unknown): value is repo.MarkerKey =>
  Array.isArray(value) && value.length === 2 && isKeyNumber(value[0]) && isKeyInt(value[1]) && value[1] > 0;

function withinRecording(recording: RecordingRow, positionSeconds: number | undefined): void {
  const duration = durationOf(recording);
  if (positionSeconds !== undefined && duration !== null && positionSeconds > duration)
    throw errors.validation([
      { path: '/body/positionSeconds', message: `must be within the recording (0 to ${duration} s)` },
    ]);
}

const fieldsOf = (input: {
  label?: string | undefined;
  positionSeconds?: number | undefined;
  color?: string | undefined;
}) => ({
  ...(input.label !== undefined ? { label: input.label.trim() } : {}),
  ...(input.positionSeconds !== undefined ? { positionSeconds: input.positionSeconds } : {}),
  ...(input.color !== undefined ? { color: input.color.toLowerCase() } : {}),
});

/** Markers of a recording, placed while it runs or afterwards, and their export for DAWs. */
export class MarkersService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: SessionEvents,
  ) {}

  async list(principal: Principal, ids: Ids, teamId: number | undefined, page: Page) {
    await requireRecording(this.db, principal, ids, 'guest', teamId);
    const rows = await repo.listMarkers(
      this.db,
      ids.recordingId,
      decodeCursor(page.cursor, isMarkerKey),
      page.limit + 1,
    );
    return toPage(rows, page.limit, (last): repo.MarkerKey => [last.positionSeconds, last.id]);
  }

  async create(
    principal: Principal,
    ids: Ids,
    input: {
      teamId?: number | undefined;
      label: string;
      positionSeconds: number;
      color?: string | undefined;
    },
  ) {
    const { session, recording, userId } = await requireRecording(
      this.db,
      principal,
      ids,
      'member',
      input.teamId,
    );
    withinRecording(recording, input.positionSeconds);
    return this.db.transaction(async (tx) => {
      const marker = await repo.insertMarker(tx, {
        recordingId: ids.recordingId,
        label: input.label.trim(),
        positionSeconds: input.positionSeconds,
        color: (input.color ?? DEFAULT_MARKER_COLOR).toLowerCase(),
        createdBy: userId,
        now: this.clock.now(),
      });
      await this.events.record(tx, principal, session, 'marker.created', {
        recordingId: ids.recordingId,
        markerId: marker.id,
      });
      return marker;
    });
  }

  async update(
    principal: Principal,
    ids: Ids & { markerId: number },
    input: { teamId?: number | undefined; label?: string; positionSeconds?: number; color?: string },
  ) {
    const fields = fieldsOf(input);
    if (Object.keys(fields).length === 0)
      throw errors.validation([{ path: '/body', message: 'must name a field to change besides teamId' }]);
    const { session, recording } = await requireRecording(this.db, principal, ids, 'member', input.teamId);
    withinRecording(recording, input.positionSeconds);
    return this.db.transaction(async (tx) => {
      const marker = await repo.updateMarker(tx, ids.recordingId, ids.markerId, fields, this.clock.now());
      if (!marker) throw errors.notFound('marker');
      await this.events.record(tx, principal, session, 'marker.updated', {
        recordingId: ids.recordingId,
        markerId: ids.markerId,
        fields: Object.keys(fields),
      });
      return marker;
    });
  }

  async remove(principal: Principal, ids: Ids & { markerId: number }, teamId?: number): Promise<void> {
    const { session } = await requireRecording(this.db, principal, ids, 'member', teamId);
    await this.db.transaction(async (tx) => {
      if (!(await repo.deleteMarker(tx, ids.recordingId, ids.markerId))) throw errors.notFound('marker');
      await this.events.record(tx, principal, session, 'marker.deleted', {
        recordingId: ids.recordingId,
        markerId: ids.markerId,
      });
    });
  }

  /** The recording's markers as a file a DAW imports, in time order. */
  async export(principal: Principal, ids: Ids, teamId: number | undefined, format: MarkerExportFormat) {
    await requireRecording(this.db, principal, ids, 'guest', teamId);
    const markers = await repo.listMarkers(this.db, ids.recordingId, undefined, MAX_EXPORTED_MARKERS);
    const writer = MARKER_EXPORTS[format];
    return {
      contentType: writer.contentType,
      fileName: `recording-${ids.recordingId}-${writer.suffix}`,
      body: writer.write(markers),
    };
  }
}
