import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Clock } from '../../shared/clock.ts';
import { publicBaseUrl } from '../../shared/public-url.ts';
import type { Secrets } from '../../shared/secrets.ts';
import { createBlobStore } from '../../storage/storage-config.ts';
import { DownloadMarks } from './download-marks.ts';
import { defineFilesJobs } from './files.jobs.ts';
import { FilesService } from './files.service.ts';
import { LocalTransfers } from './transfers.ts';
import { UploadQuota } from './upload-quota.ts';

/** The blob store chosen by configuration, the files service over it, and its background jobs. */
export async function createFilesServices(deps: {
  db: Db;
  clock: Clock;
  config: Config;
  secrets: Secrets;
  jobs: JobQueue;
}) {
  const { db, clock, config, secrets, jobs } = deps;
  const { storage } = config;
  const store = await createBlobStore(storage.settings, {
    dataDir: config.dataDir,
    publicBaseUrl: publicBaseUrl(config),
    signingSecret: secrets.urlSigningSecret,
    now: () => clock.now().getTime(),
  });
  const settings = {
    limits: storage.limits,
    uploadUrlTtlSeconds: storage.uploadUrlTtlSeconds,
    downloadUrlTtlSeconds: storage.downloadUrlTtlSeconds,
    pendingUploadTtlSeconds: storage.pendingUploadTtlSeconds,
    maxOpenUploadsPerTeam: storage.maxOpenUploadsPerTeam,
  };
  defineFilesJobs(jobs, { db, clock, store, settings });
  const marks = new DownloadMarks({
    baseUrl: publicBaseUrl(config),
    secret: secrets.urlSigningSecret,
    now: () => clock.now().getTime(),
  });
  return {
    files: new FilesService(db, clock, store, settings, jobs, marks),
    fileTransfers: new LocalTransfers(
      db,
      clock,
      store,
      secrets.urlSigningSecret,
      marks,
      new UploadQuota(db, clock, settings.maxOpenUploadsPerTeam),
    ),
  };
}
