import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { LocalDiskStore } from './local-disk-store.ts';
import { S3Store } from './s3-store.ts';
import {
  createBlobStore,
  fileLimitsFromSettings,
  StorageEnv,
  type StorageSettings,
  storageSettingsProblems,
} from './storage-config.ts';

/** What the service's config loader does with the environment: defaults, conversion, validation. */
function settingsFrom(env: Record<string, string>): StorageSettings {
  const converted = Value.Convert(StorageEnv, Value.Default(StorageEnv, { ...env }));
  const errors = [...Value.Errors(StorageEnv, converted)];
  if (errors.length > 0) throw new Error(errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  return converted as StorageSettings;
}

const tempDirs: string[] = [];
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('storage settings', () => {
  it('defaults to the local driver with sensible limits and TTLs', () => {
    const settings = settingsFrom({});
    expect(settings).toMatchObject({
      STORAGE_DRIVER: 'local',
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: false,
      UPLOAD_URL_TTL_SECONDS: 900,
      DOWNLOAD_URL_TTL_SECONDS: 300,
      MAX_AUDIO_BYTES: 1024 ** 3,
    });
    expect(storageSettingsProblems(settings)).toEqual([]);
  });

  it('converts strings from the environment', () => {
    const settings = settingsFrom({
      STORAGE_DRIVER: 's3',
      S3_FORCE_PATH_STYLE: 'true',
      MAX_AUDIO_BYTES: '5000',
      UPLOAD_URL_TTL_SECONDS: '120',
    });
    expect(settings.S3_FORCE_PATH_STYLE).toBe(true);
    expect(fileLimitsFromSettings(settings).audio.maxBytes).toBe(5000);
    expect(settings.UPLOAD_URL_TTL_SECONDS).toBe(120);
  });

  it('rejects bad single values', () => {
    expect(() => settingsFrom({ STORAGE_DRIVER: 'ftp' })).toThrow();
    expect(() => settingsFrom({ S3_ENDPOINT: 'minio:9000' })).toThrow();
    expect(() => settingsFrom({ UPLOAD_URL_TTL_SECONDS: '999999999' })).toThrow();
  });

  it('keeps uploads registrable at least as long as their URLs work', () => {
    expect(settingsFrom({}).PENDING_UPLOAD_TTL_SECONDS).toBe(86_400);
    expect(
      storageSettingsProblems(
        settingsFrom({ UPLOAD_URL_TTL_SECONDS: '3600', PENDING_UPLOAD_TTL_SECONDS: '600' }),
      ),
    ).toEqual(['PENDING_UPLOAD_TTL_SECONDS: must be at least UPLOAD_URL_TTL_SECONDS']);
  });

  it("is part of the service's configuration, its problems listed with the others", () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      MAX_AUDIO_BYTES: '1000',
      PENDING_UPLOAD_TTL_SECONDS: '7200',
      MAX_OPEN_UPLOADS_PER_TEAM: '5',
    });
    expect(config.storage.settings.STORAGE_DRIVER).toBe('local');
    expect(config.storage.maxOpenUploadsPerTeam).toBe(5);
    expect(loadConfig({ NODE_ENV: 'test' }).storage.maxOpenUploadsPerTeam).toBe(100);
    expect(config.storage.limits.audio.maxBytes).toBe(1000);
    expect(config.storage.pendingUploadTtlSeconds).toBe(7200);
    expect(() => loadConfig({ NODE_ENV: 'test', STORAGE_DRIVER: 's3', S3_BUCKET: 'media' })).toThrow(
      /S3_ACCESS_KEY_ID: required[\s\S]*S3_SECRET_ACCESS_KEY: required/,
    );
  });

  it('lists what the s3 driver is missing', () => {
    expect(storageSettingsProblems(settingsFrom({ STORAGE_DRIVER: 's3', S3_BUCKET: 'media' }))).toEqual([
      'S3_ACCESS_KEY_ID: required when STORAGE_DRIVER is s3',
      'S3_SECRET_ACCESS_KEY: required when STORAGE_DRIVER is s3',
    ]);
  });

  it('creates the store the driver names', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tmw-config-'));
    tempDirs.push(dataDir);
    const dependencies = { dataDir, publicBaseUrl: 'http://localhost:3000', signingSecret: 'x'.repeat(32) };
    const local = await createBlobStore(settingsFrom({}), dependencies);
    expect(local).toBeInstanceOf(LocalDiskStore);
    await local.put('a/b.txt', Buffer.from('hi'), { contentType: 'text/plain' });
    expect((await local.head('a/b.txt'))?.size).toBe(2);

    const s3 = await createBlobStore(
      settingsFrom({
        STORAGE_DRIVER: 's3',
        S3_BUCKET: 'media',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_ENDPOINT: 'http://127.0.0.1:9',
        S3_FORCE_PATH_STYLE: 'true',
      }),
      dependencies,
    );
    expect(s3).toBeInstanceOf(S3Store);
    await expect(createBlobStore(settingsFrom({ STORAGE_DRIVER: 's3' }), dependencies)).rejects.toThrow(
      /S3_BUCKET/,
    );
  });
});
