import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { errors } from '../../../shared/errors.ts';
import { requireSession, type SessionAccess, type SessionNeed } from '../session-access.ts';
import { findRecording, type RecordingRow } from './recordings.repository.ts';

/**
 * How long a recording is, when that is known: its audio's duration, else the time between start and stop
 * of a stopped live recording. null while it runs or when its audio could not be read.
 */
export function durationOf(recording: RecordingRow): number | null {
  if (recording.audioSeconds !== null) return recording.audioSeconds;
  if (recording.fileId === null && recording.startedAt && recording.stoppedAt)
    return (recording.stoppedAt.getTime() - recording.startedAt.getTime()) / 1000;
  return null;
}

/** A recording of a session the caller has `need` of (see requireSession); another one is 404. */
export async function requireRecording(
  db: Db,
  principal: Principal,
  ids: { sessionId: number; recordingId: number },
  need: SessionNeed,
  teamId?: number,
): Promise<SessionAccess & { recording: RecordingRow }> {
  const access = await requireSession(db, principal, ids.sessionId, need, teamId);
  const recording = await findRecording(db, ids.sessionId, ids.recordingId);
  if (!recording) throw errors.notFound('recording');
  return { ...access, recording };
}
