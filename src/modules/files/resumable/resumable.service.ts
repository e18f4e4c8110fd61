import { randomBytes } from 'node:crypto';
import { type Locker, Server, type Upload } from '@tus/server';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../../shared/clock.ts';
import { errors } from '../../../shared/errors.ts';
import type { BlobStore } from '../../../storage/blob-store.ts';
import { verifyBlobToken } from '../../../storage/signing.ts';
import { checkUploadRequest, GENERIC_UPLOAD_TYPE } from '../../../storage/upload-request.ts';
import { findOpenPendingBySignedKey, releaseClaim } from '../files.repository.ts';
import { publishUpload, signatureError, uploadRefusal } from '../transfers.ts';
import type { UploadQuota } from '../upload-quota.ts';
import { tusFailure } from './resumable-errors.ts';
import { RESUMABLE_ID, RESUMABLE_PREFIX, type ResumableStore } from './resumable-stores.ts';
import { RESUMABLE_PATH } from './resumable-tickets.ts';

export type ResumableDependencies = {
  db: Db;
  clock: Clock;
  store: BlobStore;
  quota: UploadQuota;
  signingSecret: string;
  resumable: ResumableStore;
  locker: Locker;
};

/** What the service records with a tus upload when it is created (the client's metadata is not kept). */
type Grant = { key: string; contentType: string; uploadId: number; claimed: number };

function grantOf(upload: Pick<Upload, 'metadata'>): Grant | undefined {
  const meta = upload.metadata ?? {};
  const uploadId = Number(meta.upload);
  const claimed = Number(meta.claimed);
  if (!meta.key || !meta.contentType || !Number.isSafeInteger(uploadId) || !Number.isSafeInteger(claimed)) {
    return undefined;
  }
  return { key: meta.key, contentType: meta.contentType, uploadId, claimed };
}

/**
 * Resumable uploads (tus 1.0.0: creation, HEAD, PATCH, termination) of the bytes of an upload ticket. The
 * signed token in `Upload-Metadata` is the authority, checked like a signed PUT: signature and expiry, the
 * length against its limit, the type, that the ticket's upload is still open; the team's quota is claimed for
 * the whole length at creation. Once the last byte is in, the bytes are published to the ticket's key as a
 * signed PUT publishes them, so registration is unchanged.
 */
export class ResumableUploads {
  readonly #server: Server;
  /** What failed in a request, read back once the tus server answered it. */
  readonly #failures = new WeakMap<Request, unknown>();
  /** The grant of an upload a DELETE is terminating, to hand its quota back once it is gone. */
  readonly #terminating = new WeakMap<Request, Grant>();

  constructor(private readonly deps: ResumableDependencies) {
    this.#server = new Server({
      path: RESUMABLE_PATH,
      datastore: deps.resumable.datastore,
      locker: deps.locker,
      // The app's CORS settings answer for every route, this one included.
      allowedOrigins: [],
      namingFunction: () => `${RESUMABLE_PREFIX}${randomBytes(16).toString('hex')}`,
      getFileIdFromRequest: (_request, last) =>
        last !== undefined && RESUMABLE_ID.test(last) ? `${RESUMABLE_PREFIX}${last}` : undefined,
      // Relative, so it holds behind any proxy: `/api/v1/uploads/resumable/<id>`.
      generateUrl: (_request, { path, id }) => `${path}/${id.slice(RESUMABLE_PREFIX.length)}`,
      onUploadCreate: (_request, upload) => this.#admit(upload),
      onIncomingRequest: (request, id) => this.#admitRequest(request, id),
      onUploadFinish: async (_request, upload) => {
        await this.#publish(upload);
        return {};
      },
      onResponseError: (request, error) => {
        this.#failures.set(request, error);
        return undefined;
      },
    });
  }

  #now = () => this.deps.clock.now().getTime();

  /** Where the uploads gather (the tus data store over the configured blob store). */
  get datastore() {
    return this.deps.resumable.datastore;
  }

  /**
   * Runs one tus request. Answers the tus response, or throws the catalogue error for a refusal (403 token,
   * 404 unknown upload, 409 closed upload or wrong offset, 413 too long or over quota, 415 type, 400 else).
   */
  async handle(request: Request): Promise<Response> {
    const response = await this.#server.handleWeb(request);
    if (response.status >= 400) {
      const text = await response.text();
      throw tusFailure(this.#failures.get(request), response.status, text);
    }
    const terminated = this.#terminating.get(request);
    if (terminated && request.method === 'DELETE') {
      await releaseClaim(this.deps.db, terminated.uploadId, terminated.claimed);
    }
    return response;
  }

  /** Checks a new upload's token, length, type and ticket, and claims its length of the team's quota. */
  async #admit(upload: Upload): Promise<{ metadata: Record<string, string> }> {
    const given = upload.metadata ?? {};
    const verified = verifyBlobToken(given.token ?? '', {
      secret: this.deps.signingSecret,
      method: 'PUT',
      now: this.#now,
    });
    if (!verified.ok) throw signatureError(verified.reason);
    const { claims } = verified;
    if (upload.size === undefined) {
      throw errors.badRequest('upload_length_required', 'Send Upload-Length; deferred lengths are not taken');
    }
    const refused = uploadRefusal(
      checkUploadRequest(claims, {
        contentType: given.filetype ?? GENERIC_UPLOAD_TYPE,
        contentLength: upload.size,
      }),
    );
    if (refused) throw refused;
    const pending = await findOpenPendingBySignedKey(this.deps.db, claims.key, this.deps.clock.now());
    if (!pending) throw errors.uploadClosed();
    // A declared size was reserved with the ticket; otherwise the whole length is claimed now.
    const claimed =
      pending.declaredSize === null && upload.size > 0
        ? await this.deps.quota.claim(pending.id, upload.size, upload.size)
        : 0;
    const metadata: Record<string, string> = {
      key: claims.key,
      contentType: claims.contentType,
      upload: String(pending.id),
      claimed: String(claimed),
    };
    if (given.filename) metadata.filename = given.filename;
    return { metadata };
  }

  /**
   * Before bytes are taken for an existing upload: its ticket must still be open (409 upload_closed once it
   * was registered, discarded or expired). Before a termination, remembers what it holds of the quota.
   */
  async #admitRequest(request: Request, id: string): Promise<void> {
    if (request.method !== 'PATCH' && request.method !== 'DELETE') return;
    const upload = await this.deps.resumable.datastore.getUpload(id).catch(() => undefined);
    const grant = upload && grantOf(upload);
    if (!grant) return;
    if (request.method === 'DELETE') {
      this.#terminating.set(request, grant);
      return;
    }
    const open = await findOpenPendingBySignedKey(this.deps.db, grant.key, this.deps.clock.now());
    if (!open) throw errors.uploadClosed();
  }

  /** Moves the completed upload's bytes to the ticket's key, as a signed PUT does, and drops its records. */
  async #publish(upload: Upload): Promise<void> {
    const grant = grantOf(upload);
    if (!grant || upload.size === undefined) throw errors.notFound('upload');
    const { db, clock, store } = this.deps;
    try {
      await publishUpload(
        { db, clock, store },
        {
          staging: upload.id,
          key: grant.key,
          size: upload.size,
          claim: { uploadId: grant.uploadId, claimed: grant.claimed },
          contentType: grant.contentType,
        },
      );
    } finally {
      await this.#dropRecords(upload.id);
    }
  }

  async #dropRecords(id: string): Promise<void> {
    await Promise.all(this.deps.resumable.records(id).map((key) => this.deps.store.delete(key)));
    await this.deps.resumable.forget(id);
  }

  /**
   * Removes the resumable uploads whose ticket is gone (expired and removed, registered, discarded), with
   * their bytes, handing back what they claimed; uploads without readable records once older than
   * `strayAfterSeconds`. Answers how many went.
   */
  async sweep(liveKeys: (keys: string[]) => Promise<Set<string>>, strayAfterSeconds: number) {
    const newest = new Map<string, number>();
    for await (const entry of this.deps.store.list(RESUMABLE_PREFIX)) {
      const name = entry.key.slice(RESUMABLE_PREFIX.length).split('.')[0] ?? '';
      if (!RESUMABLE_ID.test(name)) continue;
      const id = `${RESUMABLE_PREFIX}${name}`;
      newest.set(id, Math.max(newest.get(id) ?? 0, entry.lastModified.getTime()));
    }
    const found = await Promise.all(
      [...newest.keys()].map(async (id) => {
        const upload = await this.deps.resumable.datastore.getUpload(id).catch(() => undefined);
        return { id, grant: upload && grantOf(upload) };
      }),
    );
    const live = await liveKeys(found.flatMap(({ grant }) => (grant ? [grant.key] : [])));
    const strayCutoff = this.#now() - strayAfterSeconds * 1000;
    let removed = 0;
    for (const { id, grant } of found) {
      if (grant ? live.has(grant.key) : (newest.get(id) ?? 0) > strayCutoff) continue;
      await this.deps.resumable.datastore.remove(id).catch(() => undefined);
      await this.deps.store.delete(id);
      await this.#dropRecords(id);
      if (grant) await releaseClaim(this.deps.db, grant.uploadId, grant.claimed);
      removed++;
    }
    return removed;
  }
}
