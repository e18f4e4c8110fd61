import type { Readable } from 'node:stream';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { BlobTooLargeError, RangeNotSatisfiableError } from '../../storage/errors.ts';
import { downloadHeaders, parseRange } from '../../storage/http-range.ts';
import { type GetTokenClaims, type TokenFailureReason, verifyBlobToken } from '../../storage/signing.ts';
import { checkUploadRequest, type UploadRequestCheck } from '../../storage/upload-request.ts';
import type { DownloadMarks, MarkLog } from './download-marks.ts';
import { findOpenPendingBySignedKey, recordPut, releaseClaim } from './files.repository.ts';
import { stagingKeyFor } from './keys.ts';
import type { UploadQuota } from './upload-quota.ts';

export type UploadHeaders = { contentType: string | undefined; contentLength: string | undefined };
export type DownloadRequestHeaders = {
  range: string | undefined;
  ifRange: string | undefined;
  ifNoneMatch: string | undefined;
};

/** Who fetches: the request method (a HEAD reports no mark) and where a failing mark handler is logged. */
export type DownloadContext = { method: string; log: MarkLog };

/** What the download route answers: a status, headers, and the bytes unless it is a 304 or a redirect. */
export type DownloadAnswer = {
  status: 200 | 206 | 302 | 304;
  headers: Record<string, string>;
  stream?: Readable;
};

/** Whether a request asks for the file from its first byte (a new fetch, not a seek of one in progress). */
function fromFirstByte(range: string | undefined): boolean {
  return range === undefined || /^\s*bytes\s*=\s*0+\s*-/i.test(range);
}

/** 403 url_expired for an expired token, 403 invalid_signature for any other failure. */
export function signatureError(reason: TokenFailureReason) {
  return reason === 'expired' ? errors.signedUrlExpired() : errors.invalidSignature();
}

function isAbortedUpload(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ABORT_ERR';
}

/** The error for bytes the token does not allow (415 type, 413 size, 400 length), or undefined. */
export function uploadRefusal(check: UploadRequestCheck) {
  if (check.ok) return undefined;
  if (check.status === 415) return errors.unsupportedMediaType(check.message);
  if (check.status === 413) return errors.payloadTooLarge(check.message);
  return errors.badRequest(check.code, check.message);
}

/** Whether an `If-None-Match` header names `etag` (or `*`). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch || !etag) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

/** What publishing needs: the database (the upload's row), the time and the store holding the bytes. */
export type PublishDependencies = { db: Db; clock: Clock; store: BlobStore };

/** Bytes received for an open upload, waiting under `staging` to become the bytes of its `key`. */
export type ReceivedUpload = {
  staging: string;
  key: string;
  size: number;
  /** What receiving them claimed of the team's quota (handed back here when they are not kept). */
  claim?: { uploadId: number; claimed: number } | undefined;
  /** The type to store them under, when the staging blob was not written with it. */
  contentType?: string;
};

/**
 * Moves received bytes to the upload's key while the upload is locked open, so a registration that closed it
 * meanwhile never sees them: bytes finishing after the close are refused (409 upload_closed) and leave
 * nothing. The upload then holds the bytes stored instead of what receiving them claimed. Used by the signed
 * PUT and by resumable uploads alike, so registration sees the same thing whichever way the bytes came.
 */
export async function publishUpload(deps: PublishDependencies, upload: ReceivedUpload): Promise<void> {
  const { db, clock, store } = deps;
  const claimed = upload.claim?.claimed ?? 0;
  try {
    await db.transaction(async (tx) => {
      if (!(await recordPut(tx, upload.key, clock.now(), { size: upload.size, claimed }))) {
        throw errors.uploadClosed();
      }
      await store.move(
        upload.staging,
        upload.key,
        upload.contentType === undefined ? {} : { contentType: upload.contentType },
      );
    });
  } catch (error) {
    await store.delete(upload.staging);
    if (upload.claim) await releaseClaim(db, upload.claim.uploadId, claimed);
    throw error;
  }
}

/**
 * The service's own signed-URL endpoints for the local disk store: the signature (method, key, expiry, size
 * and type limits) is the only authority, checked before a byte of the body is read.
 */
export class LocalTransfers {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly store: BlobStore,
    private readonly signingSecret: string,
    private readonly marks: DownloadMarks,
    private readonly quota: UploadQuota,
  ) {}

  private now = () => this.clock.now().getTime();

  private requireLocalStore(): void {
    // With S3 the URLs point at the bucket; these routes never issue or accept anything.
    if (this.store.driver !== 'local') throw errors.notFound('upload URL');
  }

  /** Stores the body of a signed PUT under its key: 403 for a bad or expired URL, 413/415/400 for the body. */
  async receiveUpload(token: string, headers: UploadHeaders, body: Readable) {
    this.requireLocalStore();
    const verified = verifyBlobToken(token, { secret: this.signingSecret, method: 'PUT', now: this.now });
    if (!verified.ok) throw signatureError(verified.reason);
    const { claims } = verified;
    const refused = uploadRefusal(checkUploadRequest(claims, headers));
    if (refused) throw refused;
    // Once closed for registration (or registered, discarded, expired) the key takes no more bytes.
    const upload = await findOpenPendingBySignedKey(this.db, claims.key, this.clock.now());
    if (!upload) throw errors.uploadClosed();
    // A declared size was reserved with the URL (which takes that many bytes only); other uploads take quota
    // as their bytes arrive.
    const claim = upload.declaredSize === null ? this.quota.forPut(upload.id, claims.maxBytes) : undefined;
    const staging = stagingKeyFor(claims.key);
    let result: Awaited<ReturnType<BlobStore['put']>>;
    try {
      if (claim && headers.contentLength) await claim.claimUpFront(Number(headers.contentLength));
      result = await this.store.put(staging, claim ? claim.meter(body) : body, {
        contentType: claims.contentType,
        maxBytes: claims.maxBytes,
      });
    } catch (error) {
      if (claim) await this.quota.release(claim);
      if (error instanceof BlobTooLargeError) {
        throw errors.payloadTooLarge(`This upload URL accepts at most ${claims.maxBytes} bytes`);
      }
      if (isAbortedUpload(error)) throw errors.badRequest('upload_aborted', 'The upload was interrupted');
      throw error;
    }
    await publishUpload(
      { db: this.db, clock: this.clock, store: this.store },
      { staging, key: claims.key, size: result.size, claim },
    );
    return { key: claims.key, size: result.size, etag: result.etag };
  }

  /**
   * Answers a signed GET: whole (200), a byte range (206), not modified (304), or 416 for a bad range. With S3,
   * only marked URLs come here: they are sent on to the bucket (302). A GET of a marked URL from its first
   * byte reports the mark; the range requests a player sends while seeking do not. A mark whose topic has a
   * guard that refuses it is 404, whatever the method or range.
   */
  async openDownload(
    token: string,
    headers: DownloadRequestHeaders,
    context: DownloadContext,
  ): Promise<DownloadAnswer> {
    const verified = verifyBlobToken(token, { secret: this.signingSecret, method: 'GET', now: this.now });
    if (!verified.ok) throw signatureError(verified.reason);
    const { claims } = verified;
    // A guarded mark is checked on every fetch, before anything is served or the client is sent on.
    if (claims.mark && !(await this.marks.allows(claims.mark))) throw errors.notFound('file');
    const report = async () => {
      if (claims.mark && context.method === 'GET' && fromFirstByte(headers.range))
        await this.marks.fetched(claims.mark, context.log);
    };
    if (this.store.driver !== 'local') {
      if (!claims.mark) this.requireLocalStore();
      await report();
      return this.redirectToStore(claims);
    }
    const info = await this.store.head(claims.key);
    if (!info) throw errors.notFound('file');
    await report();
    const contentType = claims.contentType ?? info.contentType;
    const common = {
      contentType,
      etag: info.etag,
      lastModified: info.lastModified,
      ...(claims.downloadName !== undefined ? { downloadName: claims.downloadName } : {}),
      ...(claims.disposition !== undefined ? { disposition: claims.disposition } : {}),
    };
    if (etagMatches(headers.ifNoneMatch, info.etag)) {
      const { 'content-length': _length, ...rest } = downloadHeaders({ ...common, size: info.size });
      return { status: 304, headers: rest };
    }
    const decision = parseRange(headers.range, info.size, {
      ifRange: headers.ifRange,
      etag: info.etag,
      lastModified: info.lastModified,
    });
    if (decision.kind === 'unsatisfiable') throw errors.rangeNotSatisfiable(info.size);
    const range = decision.kind === 'partial' ? decision.range : undefined;
    let content: Awaited<ReturnType<BlobStore['get']>>;
    try {
      content = await this.store.get(claims.key, range ? { range } : {});
    } catch (error) {
      if (error instanceof RangeNotSatisfiableError) throw errors.rangeNotSatisfiable(error.size);
      throw error;
    }
    if (!content) throw errors.notFound('file');
    const served = content.range;
    return {
      status: served ? 206 : 200,
      headers: downloadHeaders({
        ...common,
        size: content.size,
        etag: content.etag,
        ...(served ? { range: served } : {}),
      }),
      stream: content.stream,
    };
  }

  /** A fresh presigned URL of the store for the same file, living no longer than the URL that led here. */
  private async redirectToStore(claims: GetTokenClaims): Promise<DownloadAnswer> {
    const remaining = Math.max(1, claims.expiresAt - Math.floor(this.now() / 1000));
    const target = await this.store.createDownloadUrl({
      key: claims.key,
      expiresInSeconds: remaining,
      ...(claims.downloadName !== undefined ? { downloadName: claims.downloadName } : {}),
      ...(claims.disposition !== undefined ? { disposition: claims.disposition } : {}),
      ...(claims.contentType !== undefined ? { contentType: claims.contentType } : {}),
    });
    // Not cached, so every fetch (and so every play) comes back here.
    return { status: 302, headers: { location: target.url, 'cache-control': 'no-store' } };
  }
}
