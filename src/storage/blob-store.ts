import type { Readable } from 'node:stream';

/** What can be stored: bytes in memory, a Node stream, or any async iterable of byte chunks. */
export type BlobBody = Uint8Array | Readable | AsyncIterable<Uint8Array>;

export type PutOptions = {
  contentType: string;
  /** Refuse (and store nothing) once the body grows past this many bytes: the write fails with BlobTooLargeError. */
  maxBytes?: number;
};

export type MoveOptions = { contentType?: string };

export type PutResult = { key: string; size: number; etag: string };

export type BlobInfo = {
  key: string;
  size: number;
  contentType: string;
  /** A strong validator, already quoted for an `ETag` header. */
  etag: string;
  lastModified: Date;
};

/** Inclusive byte offsets, as in HTTP: `{start: 0, end: 99}` is the first 100 bytes. */
export type ByteRange = { start: number; end: number };

export type GetOptions = { range?: ByteRange };

export type BlobContent = BlobInfo & {
  stream: Readable;
  /** Bytes in `stream`: the whole size, or the length of `range`. */
  contentLength: number;
  range?: ByteRange;
};

export type BlobListEntry = { key: string; size: number; lastModified: Date };

export type UploadUrlRequest = {
  key: string;
  contentType: string;
  maxBytes: number;
  expiresInSeconds: number;
  /** The exact size the client declared; when given, the URL only accepts a body of that length. */
  contentLength?: number;
};

export type UploadUrl = {
  url: string;
  method: 'PUT';
  /** Headers the client must send with the PUT, exactly as given. */
  headers: Record<string, string>;
  expiresAt: Date;
};

export type DownloadUrlRequest = {
  key: string;
  expiresInSeconds: number;
  /** The file's name in `Content-Disposition` (offered as the saved file's name). */
  downloadName?: string;
  /** `attachment` (save as, the default when a name is given) or `inline` (shown or played in place). */
  disposition?: 'inline' | 'attachment';
  /** Served instead of the stored content type. */
  contentType?: string;
};

export type DownloadUrl = { url: string; expiresAt: Date };

/**
 * Where file bytes live. Keys are relative slash-separated paths (see assertValidBlobKey); every method
 * validates them and throws InvalidBlobKeyError for a bad one.
 */
export interface BlobStore {
  readonly driver: 'local' | 's3';
  /** Stores the whole body under `key`, replacing any blob there; readers never see a partial body. */
  put(key: string, body: BlobBody, options: PutOptions): Promise<PutResult>;
  head(key: string): Promise<BlobInfo | null>;
  /** Null when there is no blob; RangeNotSatisfiableError when `range` starts at or past the end. */
  get(key: string, options?: GetOptions): Promise<BlobContent | null>;
  /** Succeeds whether or not the blob exists. */
  delete(key: string): Promise<void>;
  /**
   * Renames a blob (e.g. pending -> final), replacing any blob at `toKey`; BlobNotFoundError without a source.
   * With `contentType` the blob is stored under that type (bytes written by something other than `put`).
   */
  move(fromKey: string, toKey: string, options?: MoveOptions): Promise<void>;
  /** Every blob whose key starts with `prefix`, in ascending key order. */
  list(prefix: string): AsyncIterable<BlobListEntry>;
  createUploadUrl(request: UploadUrlRequest): Promise<UploadUrl>;
  createDownloadUrl(request: DownloadUrlRequest): Promise<DownloadUrl>;
}

/** The longest a signed URL may live: S3's limit for SigV4 presigned URLs, used by every driver. */
export const MAX_SIGNED_URL_SECONDS = 604_800;

export function assertExpiry(expiresInSeconds: number): void {
  if (
    !Number.isInteger(expiresInSeconds) ||
    expiresInSeconds < 1 ||
    expiresInSeconds > MAX_SIGNED_URL_SECONDS
  ) {
    throw new RangeError(`expiresInSeconds must be an integer from 1 to ${MAX_SIGNED_URL_SECONDS}`);
  }
}

export function assertUploadUrlRequest(request: UploadUrlRequest): void {
  assertExpiry(request.expiresInSeconds);
  if (!Number.isSafeInteger(request.maxBytes) || request.maxBytes < 1) {
    throw new RangeError('maxBytes must be a positive integer');
  }
  const { contentLength } = request;
  if (contentLength !== undefined && (!Number.isSafeInteger(contentLength) || contentLength < 0)) {
    throw new RangeError('contentLength must be a non-negative integer');
  }
  if (contentLength !== undefined && contentLength > request.maxBytes) {
    throw new RangeError('contentLength is larger than maxBytes');
  }
  if (request.contentType.trim() === '') throw new RangeError('contentType must not be empty');
}
