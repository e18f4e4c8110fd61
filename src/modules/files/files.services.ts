import type postgres from 'postgres';
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
import { ResumableUploads } from './resumable/resumable.service.ts';
import { createResumableStore } from './resumable/resumable-stores.ts';
import { ResumableTickets } from './resumable/resumable-tickets.ts';
import { UploadLocker } from './resumable/upload-locker.ts';
import { LocalTransfers } from './transfers.ts';
import { UploadQuota } from './upload-quota.ts';

/** How long a resumable upload request waits for another request writing the same upload. */
const RESUMABLE_LOCK_TIMEOUT_MS = 10_000;

/** The blob store chosen by configuration, the files service over it, and its background jobs. */
export async function createFilesServices(deps: {
  db: Db;
  clock: Clock;
  config: Config;
  secrets: Secrets;
  jobs: JobQueue;
  /** PostgreSQL's client (none for the embedded database): resumable uploads lock across processes with it. */
  sql?: postgres.Sql | undefined;
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
  const quota = new UploadQuota(db, clock, settings.maxOpenUploadsPerTeam);
  const resumableUploads = new ResumableUploads({
    db,
    clock,
    store,
    quota,
    signingSecret: secrets.urlSigningSecret,
    resumable: await createResumableStore(storage.settings, config.dataDir),
    locker: new UploadLocker(deps.sql, RESUMABLE_LOCK_TIMEOUT_MS),
  });
  defineFilesJobs(jobs, { db, clock, store, settings, resumable: resumableUploads });
  const marks = new DownloadMarks({
    baseUrl: publicBaseUrl(config),
    secret: secrets.urlSigningSecret,
    now: () => clock.now().getTime(),
  });
  const tickets = new ResumableTickets(publicBaseUrl(config), secrets.urlSigningSecret);
  return {
    files: new FilesService(db, clock, store, settings, jobs, marks, tickets),
    fileTransfers: new LocalTransfers(db, clock, store, secrets.urlSigningSecret, marks, quota),
    resumableUploads,
  };
}
