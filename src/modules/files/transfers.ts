import type { Readable } from 'node:stream';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { BlobTooLargeError, RangeNotSatisfiableError } from '../../storage/errors.ts';
import { downloadHeaders, parseRange } from '../../storage/http-range.ts';
import { type TokenFailureReason, verifyBlobToken } from '../../storage/signing.ts';
import { checkUploadRequest } from '../../storage/upload-request.ts';
import { findOpenPendingBySignedKey } from './files.repository.ts';

export type UploadHeaders = { contentType: string | undefined; contentLength: string | undefined };
export type DownloadRequestHeaders = {
  range: string | undefined;
  ifRange: string | undefined;
  ifNoneMatch: string | undefined;
};

/** What the download route answers: a status, headers, and the bytes unless it is a 304. */
export type DownloadAnswer = { status: 200 | 206 | 304; headers: Record<string, string>; stream?: Readable };

function signatureError(reason: TokenFailureReason) {
  return reason === 'expired' ? errors.signedUrlExpired() : errors.invalidSignature();
}

function isAbortedUpload(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ABORT_ERR';
}

function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch || !etag) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
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
    const check = checkUploadRequest(claims, headers);
    if (!check.ok) {
      if (check.status === 415) throw errors.unsupportedMediaType(check.message);
      if (check.status === 413) throw errors.payloadTooLarge(check.message);
      throw errors.badRequest(check.code, check.message);
    }
    // Once registered (or discarded, or expired) the key takes no more bytes, so a replayed URL leaves nothing.
    if (!(await findOpenPendingBySignedKey(this.db, claims.key, this.clock.now())))
      throw errors.uploadClosed();
    try {
      const result = await this.store.put(claims.key, body, {
        contentType: claims.contentType,
        maxBytes: claims.maxBytes,
      });
      return { key: result.key, size: result.size, etag: result.etag };
    } catch (error) {
      if (error instanceof BlobTooLargeError) {
        throw errors.payloadTooLarge(`This upload URL accepts at most ${claims.maxBytes} bytes`);
      }
      if (isAbortedUpload(error)) throw errors.badRequest('upload_aborted', 'The upload was interrupted');
      throw error;
    }
  }

  /** Answers a signed GET: whole (200), a byte range (206), not modified (304), or 416 for a bad range. */
  async openDownload(token: string, headers: DownloadRequestHeaders): Promise<DownloadAnswer> {
    this.requireLocalStore();
    const verified = verifyBlobToken(token, { secret: this.signingSecret, method: 'GET', now: this.now });
    if (!verified.ok) throw signatureError(verified.reason);
    const { claims } = verified;
    const info = await this.store.head(claims.key);
    if (!info) throw errors.notFound('file');
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
}
