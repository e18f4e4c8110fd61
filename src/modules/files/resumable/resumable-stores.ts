import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { type DataStore, MemoryKvStore } from '@tus/server';
import { PRIVATE_FOLDERS } from '../../../shared/private-files.ts';
import type { StorageSettings } from '../../../storage/storage-config.ts';

/**
 * Where the bytes of resumable uploads gather, in the same store as every other blob: the data of upload
 * `resumable/<id>` is the blob of that key, so publishing it is a move within the store.
 */
export const RESUMABLE_PREFIX = 'resumable/';

/** The part of an upload id that appears in its URL: 32 lowercase hex digits. */
export const RESUMABLE_ID = /^[0-9a-f]{32}$/;

/** The tus data store for the configured blob store, and the blobs it keeps beside an upload's data. */
export type ResumableStore = {
  datastore: DataStore;
  /** Keys of the upload's own records (its info, an incomplete part), removed with it. */
  records(id: string): string[];
  /** Forgets what the process remembers of a removed upload. */
  forget(id: string): Promise<void>;
};

/**
 * The local store keeps tus data under `<DATA_DIR>/blobs/resumable/` (info in `<id>.json` beside it); S3 keeps
 * it in the bucket (a multipart upload per tus upload, with `<id>.info` and a trailing `<id>.part`).
 */
export async function createResumableStore(
  settings: StorageSettings,
  dataDir: string,
): Promise<ResumableStore> {
  if (settings.STORAGE_DRIVER === 's3') {
    const { S3Store } = await import('@tus/s3-store');
    const cache = new MemoryKvStore<import('@tus/s3-store').MetadataValue>();
    const datastore = new S3Store({
      cache,
      // Expiry is the ticket's, enforced by the files maintenance job; no object tags needed.
      useTags: false,
      s3ClientConfig: {
        bucket: settings.S3_BUCKET as string,
        region: settings.S3_REGION,
        ...(settings.S3_ENDPOINT ? { endpoint: settings.S3_ENDPOINT } : {}),
        credentials: {
          accessKeyId: settings.S3_ACCESS_KEY_ID as string,
          secretAccessKey: settings.S3_SECRET_ACCESS_KEY as string,
        },
        forcePathStyle: settings.S3_FORCE_PATH_STYLE,
        // As the blob store's client: checksums several S3-compatible services do not know stay off.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      },
    });
    return {
      datastore,
      records: (id) => [`${id}.info`, `${id}.part`],
      forget: (id) => cache.delete(id),
    };
  }
  const root = path.resolve(dataDir, 'blobs');
  await mkdir(path.join(root, RESUMABLE_PREFIX), PRIVATE_FOLDERS);
  return {
    datastore: new FileStore({ directory: root }),
    records: (id) => [`${id}.json`],
    forget: async () => {},
  };
}
