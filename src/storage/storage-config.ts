import path from 'node:path';
import { type Static, Type } from '@sinclair/typebox';
import type { BlobStore } from './blob-store.ts';
import { defaultFileLimits, type FileLimits, withMaxBytes } from './limits.ts';
import { LocalDiskStore } from './local-disk-store.ts';

/**
 * The environment variables blob storage reads, with their defaults. Merge `StorageEnv.properties` into the
 * service's environment schema; after TypeBox's Default + Convert, pass the values on as StorageSettings.
 */
export const StorageEnv = Type.Object({
  STORAGE_DRIVER: Type.Union([Type.Literal('local'), Type.Literal('s3')], { default: 'local' }),
  S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  S3_REGION: Type.String({ minLength: 1, default: 'us-east-1' }),
  S3_BUCKET: Type.Optional(Type.String({ minLength: 3, maxLength: 63 })),
  S3_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  S3_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  S3_FORCE_PATH_STYLE: Type.Boolean({ default: false }),
  UPLOAD_URL_TTL_SECONDS: Type.Integer({ minimum: 60, maximum: 604_800, default: 900 }),
  DOWNLOAD_URL_TTL_SECONDS: Type.Integer({ minimum: 60, maximum: 604_800, default: 300 }),
  /** How long an upload may wait for registration before its bytes are removed. */
  PENDING_UPLOAD_TTL_SECONDS: Type.Integer({ minimum: 60, maximum: 2_592_000, default: 86_400 }),
  /** Upload URLs a team may hold open (issued, not yet registered, discarded or expired) at once. */
  MAX_OPEN_UPLOADS_PER_TEAM: Type.Integer({ minimum: 1, maximum: 100_000, default: 100 }),
  MAX_AUDIO_BYTES: Type.Integer({ minimum: 1, default: defaultFileLimits.audio.maxBytes }),
  MAX_IMAGE_BYTES: Type.Integer({ minimum: 1, default: defaultFileLimits.image.maxBytes }),
  MAX_VIDEO_BYTES: Type.Integer({ minimum: 1, default: defaultFileLimits.video.maxBytes }),
  MAX_DOCUMENT_BYTES: Type.Integer({ minimum: 1, default: defaultFileLimits.document.maxBytes }),
});

export type StorageSettings = Static<typeof StorageEnv>;

/**
 * Problems no single variable shows: the s3 driver needs a bucket and both halves of a key pair, and an upload
 * must stay registrable at least as long as its upload URL works.
 */
export function storageSettingsProblems(settings: StorageSettings): string[] {
  const problems: string[] = [];
  if (settings.PENDING_UPLOAD_TTL_SECONDS < settings.UPLOAD_URL_TTL_SECONDS) {
    problems.push('PENDING_UPLOAD_TTL_SECONDS: must be at least UPLOAD_URL_TTL_SECONDS');
  }
  if (settings.STORAGE_DRIVER === 's3') {
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!settings[name]) problems.push(`${name}: required when STORAGE_DRIVER is s3`);
    }
  }
  return problems;
}

export function fileLimitsFromSettings(settings: StorageSettings): FileLimits {
  return withMaxBytes(defaultFileLimits, {
    audio: settings.MAX_AUDIO_BYTES,
    image: settings.MAX_IMAGE_BYTES,
    video: settings.MAX_VIDEO_BYTES,
    document: settings.MAX_DOCUMENT_BYTES,
  });
}

export type BlobStoreDependencies = {
  /** The service's DATA_DIR: local blobs go to `<dataDir>/blobs`. */
  dataDir: string;
  /** The service's public origin, for local signed URLs. */
  publicBaseUrl: string;
  signingSecret: string;
  now?: () => number;
};

/**
 * The store STORAGE_DRIVER names. Throws when storageSettingsProblems has any. The S3 client loads only
 * when chosen: it weighs about 10 MB a local store never needs.
 */
export async function createBlobStore(
  settings: StorageSettings,
  dependencies: BlobStoreDependencies,
): Promise<BlobStore> {
  const problems = storageSettingsProblems(settings);
  if (problems.length > 0) throw new Error(`Invalid storage settings: ${problems.join('; ')}`);
  const now = dependencies.now ?? Date.now;
  if (settings.STORAGE_DRIVER === 's3') {
    const { S3Store } = await import('./s3-store.ts');
    return new S3Store({
      bucket: settings.S3_BUCKET as string,
      region: settings.S3_REGION,
      ...(settings.S3_ENDPOINT ? { endpoint: settings.S3_ENDPOINT } : {}),
      accessKeyId: settings.S3_ACCESS_KEY_ID as string,
      secretAccessKey: settings.S3_SECRET_ACCESS_KEY as string,
      forcePathStyle: settings.S3_FORCE_PATH_STYLE,
      now,
    });
  }
  return new LocalDiskStore({
    root: path.resolve(dependencies.dataDir, 'blobs'),
    publicBaseUrl: dependencies.publicBaseUrl,
    signingSecret: dependencies.signingSecret,
    now,
  });
}
