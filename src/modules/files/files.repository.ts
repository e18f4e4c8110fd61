import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  blobDeletions,
  files,
  type PeaksStatus,
  pendingUploads,
  plans,
  type StoredPeaks,
  teamStorage,
  teams,
} from '../../db/schema/index.ts';

export type FileRow = typeof files.$inferSelect;
export type NewFileRow = typeof files.$inferInsert;
export type PendingUploadRow = typeof pendingUploads.$inferSelect;
export type NewPendingUploadRow = typeof pendingUploads.$inferInsert;
export type FileOwnerRef = { type: string; id: string };

export async function insertPendingUpload(db: Db, values: NewPendingUploadRow): Promise<PendingUploadRow> {
  const [row] = await db.insert(pendingUploads).values(values).returning();
  return row!;
}

export async function findPendingByKey(db: Db, teamId: number, key: string) {
  const [row] = await db
    .select()
    .from(pendingUploads)
    .where(and(eq(pendingUploads.teamId, teamId), eq(pendingUploads.key, key)))
    .limit(1);
  return row;
}

export async function findPendingById(db: Db, teamId: number, id: number) {
  const [row] = await db
    .select()
    .from(pendingUploads)
    .where(and(eq(pendingUploads.teamId, teamId), eq(pendingUploads.id, id)))
    .limit(1);
  return row;
}

/**
 * The open upload behind a signed PUT. Not team-scoped on purpose: the signature over the key is the
 * authority here, and the key alone names one upload.
 */
export async function findOpenPendingBySignedKey(db: Db, key: string, now: Date) {
  const [row] = await db
    .select({
      id: pendingUploads.id,
      teamId: pendingUploads.teamId,
      declaredSize: pendingUploads.declaredSize,
    })
    .from(pendingUploads)
    .where(openForPut(key, now))
    .limit(1);
  return row;
}

const openForPut = (key: string, now: Date) =>
  and(eq(pendingUploads.key, key), isNull(pendingUploads.closedAt), gt(pendingUploads.expiresAt, now));

/**
 * Records the bytes a PUT stored for the open upload behind `key` and hands back what it had claimed, locking
 * the row until the transaction ends, so closing it (closePending) waits for the bytes being published;
 * false once it is closed, gone or expired.
 */
export async function recordPut(
  db: Db,
  key: string,
  now: Date,
  put: { size: number; claimed: number },
): Promise<boolean> {
  const rows = await db
    .update(pendingUploads)
    .set({
      receivedBytes: put.size,
      receivingBytes: sql`greatest(0, ${pendingUploads.receivingBytes} - ${put.claimed})`,
    })
    .where(openForPut(key, now))
    .returning({ id: pendingUploads.id });
  return rows.length > 0;
}

/** Hands back what an ended PUT had claimed of the quota (its bytes were not kept). */
export async function releaseClaim(db: Db, id: number, claimed: number): Promise<void> {
  if (claimed <= 0) return;
  await db
    .update(pendingUploads)
    .set({ receivingBytes: sql`greatest(0, ${pendingUploads.receivingBytes} - ${claimed})` })
    .where(eq(pendingUploads.id, id));
}

/** Locks the open upload behind a signed PUT until the transaction ends; undefined once closed, gone or expired. */
export async function lockOpenPending(db: Db, id: number, now: Date) {
  const [row] = await db
    .select({ teamId: pendingUploads.teamId, holds: holdsQuota })
    .from(pendingUploads)
    .where(and(eq(pendingUploads.id, id), isNull(pendingUploads.closedAt), gt(pendingUploads.expiresAt, now)))
    .for('update');
  return row;
}

/** Adds to what the PUTs being received for an upload have claimed of the quota. */
export async function addClaim(db: Db, id: number, bytes: number): Promise<void> {
  await db
    .update(pendingUploads)
    .set({ receivingBytes: sql`${pendingUploads.receivingBytes} + ${bytes}` })
    .where(eq(pendingUploads.id, id));
}

/**
 * Closes an open upload to further PUTs, for the registration that calls it: true when this call closed it,
 * false when it was already closed (by another registration), gone or expired.
 */
export async function closePending(db: Db, teamId: number, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(pendingUploads)
    .set({ closedAt: now })
    .where(
      and(
        eq(pendingUploads.teamId, teamId),
        eq(pendingUploads.id, id),
        isNull(pendingUploads.closedAt),
        gt(pendingUploads.expiresAt, now),
      ),
    )
    .returning({ id: pendingUploads.id });
  return rows.length > 0;
}

/** Opens a closed upload again (its registration found no bytes to take). */
export async function reopenPending(db: Db, teamId: number, id: number): Promise<void> {
  await db
    .update(pendingUploads)
    .set({ closedAt: null })
    .where(and(eq(pendingUploads.teamId, teamId), eq(pendingUploads.id, id)));
}

/**
 * The team's open (not registered, discarded or expired) uploads that hold part of its quota, and the bytes
 * they hold; `except` leaves one out (the upload being registered).
 */
export async function openUploadsOf(db: Db, teamId: number, now: Date, except?: number) {
  const [row] = await db
    .select({
      count: sql<number>`count(*) filter (where ${holdsQuota})`.mapWith(Number),
      reservedBytes: sql<number>`coalesce(sum(${reservedBytesOf}), 0)`.mapWith(Number),
    })
    .from(pendingUploads)
    .where(
      and(
        eq(pendingUploads.teamId, teamId),
        gt(pendingUploads.expiresAt, now),
        except === undefined ? undefined : sql`${pendingUploads.id} <> ${except}`,
      ),
    );
  return row ?? { count: 0, reservedBytes: 0 };
}

/**
 * What an open upload holds of the quota: its declared size, else the bytes it received and the claims of
 * the PUTs it is receiving. An upload URL nothing was sent to yet holds nothing.
 */
const reservedBytesOf = sql`coalesce(${pendingUploads.declaredSize}, ${pendingUploads.receivedBytes} + ${pendingUploads.receivingBytes})`;

/** Whether an open upload holds part of the quota, and so one of the team's open-upload slots. */
const holdsQuota = sql<boolean>`(${reservedBytesOf} > 0 or ${pendingUploads.declaredSize} is not null)`;

/** Locks a pending upload until the transaction ends, so it is registered (or removed) once. */
export async function lockPending(db: Db, teamId: number, id: number) {
  const [row] = await db
    .select()
    .from(pendingUploads)
    .where(and(eq(pendingUploads.teamId, teamId), eq(pendingUploads.id, id)))
    .for('update');
  return row;
}

export async function deletePending(db: Db, teamId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(pendingUploads)
    .where(and(eq(pendingUploads.teamId, teamId), eq(pendingUploads.id, id)))
    .returning({ id: pendingUploads.id });
  return rows.length > 0;
}

/** Removes up to `limit` expired pending uploads of any team (their blobs are queued by the trigger). */
export async function deleteExpiredPending(db: Db, now: Date, limit: number): Promise<number> {
  const expired = db
    .select({ id: pendingUploads.id })
    .from(pendingUploads)
    .where(lte(pendingUploads.expiresAt, now))
    .orderBy(asc(pendingUploads.expiresAt))
    .limit(limit);
  const rows = await db
    .delete(pendingUploads)
    .where(inArray(pendingUploads.id, expired))
    .returning({ id: pendingUploads.id });
  return rows.length;
}

/** Which of these pending keys still belong to an upload (any team: used by the store sweep). */
export async function livePendingKeys(db: Db, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: pendingUploads.key })
    .from(pendingUploads)
    .where(inArray(pendingUploads.key, keys));
  return new Set(rows.map((r) => r.key));
}

export async function insertFile(db: Db, values: NewFileRow): Promise<FileRow> {
  const [row] = await db.insert(files).values(values).returning();
  return row!;
}

export async function findFile(db: Db, teamId: number, id: number) {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.teamId, teamId), eq(files.id, id)))
    .limit(1);
  return row;
}

export async function findFileByKey(db: Db, teamId: number, key: string) {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.teamId, teamId), eq(files.key, key)))
    .limit(1);
  return row;
}

export async function findFilesByIds(db: Db, teamId: number, ids: number[]): Promise<FileRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(files)
    .where(and(eq(files.teamId, teamId), inArray(files.id, ids)));
}

export async function fileKeyTaken(db: Db, key: string): Promise<boolean> {
  const [row] = await db.select({ id: files.id }).from(files).where(eq(files.key, key)).limit(1);
  return row !== undefined;
}

/** A page of an owner's files, newest first (the files of one resource, e.g. a team's media). */
export async function listFilesOfOwner(
  db: Db,
  teamId: number,
  owner: FileOwnerRef,
  options: { limit: number; before?: number | undefined },
): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(
      and(
        eq(files.teamId, teamId),
        eq(files.ownerType, owner.type),
        eq(files.ownerId, owner.id),
        options.before ? lt(files.id, options.before) : undefined,
      ),
    )
    .orderBy(desc(files.id))
    .limit(options.limit);
}

/** The files of many owners of one type (e.g. the attachments of a page of comments), oldest first. */
export async function listFilesOfOwners(
  db: Db,
  teamId: number,
  ownerType: string,
  ownerIds: string[],
): Promise<FileRow[]> {
  if (ownerIds.length === 0) return [];
  return db
    .select()
    .from(files)
    .where(and(eq(files.teamId, teamId), eq(files.ownerType, ownerType), inArray(files.ownerId, ownerIds)))
    .orderBy(asc(files.id));
}

export type DeletedFile = { id: number; key: string };

export async function deleteFiles(db: Db, teamId: number, ids: number[]): Promise<DeletedFile[]> {
  if (ids.length === 0) return [];
  return db
    .delete(files)
    .where(and(eq(files.teamId, teamId), inArray(files.id, ids)))
    .returning({ id: files.id, key: files.key });
}

/** Deletes an owner's files, except the one with `keepId`. */
export async function deleteFilesOfOwner(
  db: Db,
  teamId: number,
  owner: FileOwnerRef,
  keepId?: number,
): Promise<DeletedFile[]> {
  return db
    .delete(files)
    .where(
      and(
        eq(files.teamId, teamId),
        eq(files.ownerType, owner.type),
        eq(files.ownerId, owner.id),
        keepId === undefined ? undefined : sql`${files.id} <> ${keepId}`,
      ),
    )
    .returning({ id: files.id, key: files.key });
}

/** Owners by type: every file whose owner is one of `ids` of that `type`. */
export type OwnerSet = { type: string; ids: string[] };

/** Deletes the files of many owners in one statement (e.g. everything a deleted track held). */
export async function deleteFilesOfOwners(
  db: Db,
  teamId: number,
  owners: OwnerSet[],
): Promise<DeletedFile[]> {
  const sets = owners.filter((o) => o.ids.length > 0);
  if (sets.length === 0) return [];
  return db
    .delete(files)
    .where(
      and(
        eq(files.teamId, teamId),
        or(...sets.map((o) => and(eq(files.ownerType, o.type), inArray(files.ownerId, o.ids)))),
      ),
    )
    .returning({ id: files.id, key: files.key });
}

/** Removes the pending uploads of these owners; their blobs are queued by the trigger. Answers their keys. */
export async function deletePendingOfOwners(db: Db, teamId: number, owners: OwnerSet[]): Promise<string[]> {
  const sets = owners.filter((o) => o.ids.length > 0);
  if (sets.length === 0) return [];
  const rows = await db
    .delete(pendingUploads)
    .where(
      and(
        eq(pendingUploads.teamId, teamId),
        or(
          ...sets.map((o) =>
            and(eq(pendingUploads.ownerType, o.type), inArray(pendingUploads.ownerId, o.ids)),
          ),
        ),
      ),
    )
    .returning({ key: pendingUploads.key, finalKey: pendingUploads.finalKey });
  return rows.flatMap((r) => [r.key, r.finalKey]);
}

export async function setDeleteAfter(
  db: Db,
  teamId: number,
  ids: number[],
  at: Date | null,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(files)
    .set({ deleteAfter: at })
    .where(and(eq(files.teamId, teamId), inArray(files.id, ids)))
    .returning({ id: files.id });
  return rows.map((r) => r.id);
}

/** Removes up to `limit` soft-deleted files whose purge time has come (any team). */
export async function purgeDueFiles(db: Db, now: Date, limit: number): Promise<number> {
  const due = db
    .select({ id: files.id })
    .from(files)
    .where(and(isNotNull(files.deleteAfter), lte(files.deleteAfter, now)))
    .limit(limit);
  const rows = await db.delete(files).where(inArray(files.id, due)).returning({ id: files.id });
  return rows.length;
}

export type PeaksUpdate =
  | { status: Extract<PeaksStatus, 'ready'>; peaks: StoredPeaks }
  | { status: Extract<PeaksStatus, 'failed'>; reason: string; message: string };

/** Records the peaks job's outcome, once: only a file still waiting for its peaks is changed. */
export async function setPeaks(db: Db, teamId: number, fileId: number, update: PeaksUpdate): Promise<void> {
  await db
    .update(files)
    .set(
      update.status === 'ready'
        ? { peaksStatus: 'ready', peaks: update.peaks, peaksFailureReason: null, peaksFailureMessage: null }
        : {
            peaksStatus: 'failed',
            peaks: null,
            peaksFailureReason: update.reason,
            peaksFailureMessage: update.message,
          },
    )
    .where(and(eq(files.teamId, teamId), eq(files.id, fileId), eq(files.peaksStatus, 'pending')));
}

/**
 * Locks the team's storage counter until the transaction ends (creating it at zero when missing) and returns
 * it with the plan's quota: registrations of one team check the quota one at a time.
 */
export async function lockStorage(db: Db, teamId: number) {
  await db.insert(teamStorage).values({ teamId }).onConflictDoNothing();
  const [row] = await db
    .select({ usedBytes: teamStorage.usedBytes, quotaBytes: plans.storageQuotaBytes })
    .from(teamStorage)
    .innerJoin(teams, eq(teams.id, teamStorage.teamId))
    .innerJoin(plans, eq(plans.id, teams.planId))
    .where(eq(teamStorage.teamId, teamId))
    .for('update', { of: teamStorage });
  return row;
}

/**
 * The team's stored bytes and files (total and per kind), its open uploads with the bytes they reserve, and
 * its plan's quota, read in one statement.
 */
export async function storageUsage(db: Db, teamId: number, now: Date) {
  const [row] = await db
    .select({
      planId: plans.id,
      planName: plans.name,
      quotaBytes: plans.storageQuotaBytes,
      usedBytes:
        sql<number>`coalesce((select ${teamStorage.usedBytes} from ${teamStorage} where ${teamStorage.teamId} = ${teams.id}), 0)`.mapWith(
          Number,
        ),
      fileCount:
        sql<number>`coalesce((select ${teamStorage.fileCount} from ${teamStorage} where ${teamStorage.teamId} = ${teams.id}), 0)`.mapWith(
          Number,
        ),
      byKind: sql<{ kind: string; bytes: string | number; files: string | number }[] | null>`(
        select json_agg(json_build_object('kind', k.kind, 'bytes', k.bytes, 'files', k.files))
        from (select ${files.kind} as kind, sum(${files.size}) as bytes, count(*) as files
              from ${files} where ${files.teamId} = ${teams.id} group by ${files.kind}) k)`,
      pendingUploads:
        sql<number>`(select count(*) from ${pendingUploads} where ${pendingUploads.teamId} = ${teams.id} and ${pendingUploads.expiresAt} > ${now.toISOString()}::timestamptz)`.mapWith(
          Number,
        ),
      reservedBytes:
        sql<number>`(select coalesce(sum(${reservedBytesOf}), 0) from ${pendingUploads} where ${pendingUploads.teamId} = ${teams.id} and ${pendingUploads.expiresAt} > ${now.toISOString()}::timestamptz)`.mapWith(
          Number,
        ),
    })
    .from(teams)
    .innerJoin(plans, eq(plans.id, teams.planId))
    .where(eq(teams.id, teamId))
    .limit(1);
  return row;
}

/**
 * The next blobs to remove (of `keys` only, when given): fresh ones first, so a blob that keeps failing never
 * holds up the rest.
 */
export async function nextBlobDeletions(db: Db, limit: number, keys?: string[]) {
  return db
    .select({ id: blobDeletions.id, key: blobDeletions.key })
    .from(blobDeletions)
    .where(keys ? inArray(blobDeletions.key, keys) : undefined)
    .orderBy(asc(blobDeletions.attempts), asc(blobDeletions.id))
    .limit(limit);
}

export async function removeBlobDeletions(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(blobDeletions).where(inArray(blobDeletions.id, ids));
}

export async function recordBlobDeletionFailure(db: Db, id: number, error: string): Promise<void> {
  await db
    .update(blobDeletions)
    .set({ attempts: sql`${blobDeletions.attempts} + 1`, lastError: error.slice(0, 1000) })
    .where(eq(blobDeletions.id, id));
}

export async function queueBlobDeletion(db: Db, key: string): Promise<void> {
  await db.insert(blobDeletions).values({ key });
}

/** The team's stored bytes and its plan's quota, without locking (early checks before an upload). */
export async function storageRoom(db: Db, teamId: number) {
  const [row] = await db
    .select({
      quotaBytes: plans.storageQuotaBytes,
      usedBytes: sql<number>`coalesce(${teamStorage.usedBytes}, 0)`.mapWith(Number),
    })
    .from(teams)
    .innerJoin(plans, eq(plans.id, teams.planId))
    .leftJoin(teamStorage, eq(teamStorage.teamId, teams.id))
    .where(eq(teams.id, teamId))
    .limit(1);
  return row;
}
