import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { files, type RecordingStatus, sessionRecordings as recordings } from '../../../db/schema/index.ts';

/** A recording with the duration of its audio when it has some (read from the file at registration). */
const recordingColumns = {
  id: recordings.id,
  sessionId: recordings.sessionId,
  name: recordings.name,
  status: recordings.status,
  fileId: recordings.fileId,
  startedAt: recordings.startedAt,
  stoppedAt: recordings.stoppedAt,
  createdBy: recordings.createdBy,
  createdAt: recordings.createdAt,
  updatedAt: recordings.updatedAt,
  audioSeconds: sql<number | null>`(${files.audio} ->> 'durationSeconds')::float8`,
};

export type RecordingRow = {
  id: number;
  sessionId: number;
  name: string;
  status: RecordingStatus;
  fileId: number | null;
  startedAt: Date | null;
  stoppedAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  audioSeconds: number | null;
};

const withAudio = (db: Db) =>
  db.select(recordingColumns).from(recordings).leftJoin(files, eq(files.id, recordings.fileId));

export async function findRecording(
  db: Db,
  sessionId: number,
  recordingId: number,
): Promise<RecordingRow | undefined> {
  const [row] = await withAudio(db).where(
    and(eq(recordings.sessionId, sessionId), eq(recordings.id, recordingId)),
  );
  return row;
}

/** Up to `limit` recordings of the session before id `beforeId`, newest first. */
export function listRecordings(
  db: Db,
  sessionId: number,
  beforeId: number | undefined,
  limit: number,
): Promise<RecordingRow[]> {
  return withAudio(db)
    .where(
      and(
        eq(recordings.sessionId, sessionId),
        beforeId === undefined ? undefined : lt(recordings.id, beforeId),
      ),
    )
    .orderBy(desc(recordings.id))
    .limit(limit);
}

export async function insertRecording(
  db: Db,
  values: {
    sessionId: number;
    name: string;
    status: RecordingStatus;
    fileId: number | null;
    startedAt: Date | null;
    createdBy: string;
    now: Date;
  },
): Promise<number> {
  const { now, ...fields } = values;
  const [row] = await db
    .insert(recordings)
    .values({ ...fields, createdAt: now, updatedAt: now })
    .returning({ id: recordings.id });
  return row!.id;
}

/** Gives a stopped recording without audio its file; false when it is not (or no longer) such a recording. */
export async function attachAudio(db: Db, recordingId: number, fileId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(recordings)
    .set({ fileId, status: 'ready', updatedAt: now })
    .where(
      and(
        eq(recordings.id, recordingId),
        eq(recordings.status, 'stopped'),
        sql`${recordings.fileId} is null`,
      ),
    )
    .returning({ id: recordings.id });
  return rows.length > 0;
}

/** Stops a live recording; false when it is not live. */
export async function stopRecording(
  db: Db,
  sessionId: number,
  recordingId: number,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(recordings)
    .set({ status: 'stopped', stoppedAt: now, updatedAt: now })
    .where(
      and(eq(recordings.sessionId, sessionId), eq(recordings.id, recordingId), eq(recordings.status, 'live')),
    )
    .returning({ id: recordings.id });
  return rows.length > 0;
}
