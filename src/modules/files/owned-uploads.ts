import type { Db } from '../../db/client.ts';
import type { FileKind } from '../../storage/limits.ts';
import type { FileRow, PendingUploadRow } from './files.repository.ts';
import { type FileOwner, type FilesService, isAppError } from './files.service.ts';

type Owned = { ownerType: string; ownerId: string };

/** Whether a file or a pending upload belongs to `owner`. */
export function ownedBy<T extends Owned>(row: T | undefined, owner: FileOwner): row is T {
  return row !== undefined && row.ownerType === owner.type && row.ownerId === String(owner.id);
}

/** A file of `owner` by id: registered (`file`), still waiting for its bytes (`pending`), or neither. */
export async function findOwnedUpload(
  files: FilesService,
  teamId: number,
  owner: FileOwner,
  fileId: number,
): Promise<{ file: FileRow; pending?: never } | { pending: PendingUploadRow; file?: never } | undefined> {
  const file = await files.get(teamId, fileId);
  if (ownedBy(file, owner)) return { file };
  const pending = await files.getPending(teamId, fileId);
  if (ownedBy(pending, owner)) return { pending };
  return undefined;
}

export type RegisterOwnedInput = {
  teamId: number;
  owner: FileOwner;
  /** The id the upload URL answered; the file keeps it. */
  fileId: number;
  kind?: FileKind | undefined;
  createdBy?: string | null | undefined;
  /** The owner's own writes, in the registration's transaction. */
  also?: (tx: Db, file: FileRow) => Promise<void>;
};

/**
 * The confirming step of a two-step upload (`POST .../{id}/added`): registers the pending upload `fileId`
 * of `owner`. Calling it again once registered answers the file; undefined when the owner has neither.
 */
export async function registerOwnedUpload(
  files: FilesService,
  input: RegisterOwnedInput,
): Promise<FileRow | undefined> {
  const { teamId, owner, fileId } = input;
  const pending = await files.getPending(teamId, fileId);
  if (!ownedBy(pending, owner)) {
    const file = await files.get(teamId, fileId);
    return ownedBy(file, owner) ? file : undefined;
  }
  try {
    return await files.register(
      { teamId, key: pending.key, owner, kind: input.kind, createdBy: input.createdBy },
      input.also,
    );
  } catch (error) {
    // Another call registered it between our read and its own: answer the file like a repeated call.
    if (!isAppError(error, 'not_found') && !isAppError(error, 'upload_closed')) throw error;
    const file = await files.get(teamId, fileId);
    if (ownedBy(file, owner)) return file;
    throw error;
  }
}

/**
 * Deletes a file of `owner` with its bytes, registered or pending; false when the owner has no such file.
 * `also` runs in the transaction that deletes a registered file.
 */
export async function removeOwnedUpload(
  files: FilesService,
  teamId: number,
  owner: FileOwner,
  fileId: number,
  also?: (tx: Db) => Promise<void>,
): Promise<boolean> {
  const file = await files.get(teamId, fileId);
  if (ownedBy(file, owner)) {
    const removed = await files.transaction(async (tx) => {
      const deleted = await files.delete(teamId, [fileId], { tx });
      if (deleted.length > 0) await also?.(tx);
      return deleted.length > 0;
    });
    if (removed) return true;
  }
  const pending = await files.getPending(teamId, fileId);
  return ownedBy(pending, owner) && (await files.discardPending(teamId, pending.key));
}
