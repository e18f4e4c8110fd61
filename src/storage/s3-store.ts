import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertValidBlobKey, assertValidBlobPrefix } from './blob-key.ts';
import {
  assertExpiry,
  assertUploadUrlRequest,
  type BlobBody,
  type BlobContent,
  type BlobInfo,
  type BlobListEntry,
  type BlobStore,
  type DownloadUrl,
  type DownloadUrlRequest,
  type GetOptions,
  type MoveOptions,
  type PutOptions,
  type PutResult,
  type UploadUrl,
  type UploadUrlRequest,
} from './blob-store.ts';
import { bodyChunks } from './body-chunks.ts';
import { BlobNotFoundError, BlobTooLargeError, RangeNotSatisfiableError } from './errors.ts';
import { contentDispositionFor } from './http-range.ts';

export type S3StoreOptions = {
  bucket: string;
  region: string;
  /** For R2, MinIO and other S3-compatible services; omit for AWS. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO needs it). */
  forcePathStyle?: boolean;
  /** Milliseconds since the epoch, like Date.now; signs presigned URLs as of this time. */
  now?: () => number;
  /** Keys per ListObjectsV2 request (S3's maximum, 1000, by default). */
  listPageSize?: number;
};

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
const MULTIPART_PART_BYTES = 8 * 1024 * 1024;

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404;
}

/** Size of the whole object from `Content-Range: bytes a-b/size`. */
function totalFromContentRange(contentRange: string | undefined): number | undefined {
  const total = contentRange?.split('/')[1];
  return total === undefined || total === '*' ? undefined : Number(total);
}

/** The same BlobStore over any S3-compatible service, with real presigned URLs for direct client transfers. */
export class S3Store implements BlobStore {
  readonly driver = 's3' as const;
  readonly client: S3Client;
  readonly #bucket: string;
  readonly #now: () => number;
  readonly #listPageSize: number;

  constructor(options: S3StoreOptions) {
    this.#bucket = options.bucket;
    this.#now = options.now ?? Date.now;
    this.#listPageSize = options.listPageSize ?? 1000;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Checksums the SDK would add by default are unknown to several S3-compatible services and would
      // also end up in presigned URLs, where no browser can compute them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: BlobBody, options: PutOptions): Promise<PutResult> {
    assertValidBlobKey(key);
    const params = { Bucket: this.#bucket, Key: key, ContentType: options.contentType };
    if (body instanceof Uint8Array) {
      if (options.maxBytes !== undefined && body.byteLength > options.maxBytes) {
        throw new BlobTooLargeError(options.maxBytes);
      }
      const result = await this.client.send(
        new PutObjectCommand({ ...params, Body: body, ContentLength: body.byteLength }),
      );
      return { key, size: body.byteLength, etag: result.ETag ?? '' };
    }
    let size = 0;
    const counted = Readable.from(
      (async function* () {
        for await (const chunk of bodyChunks(body, options.maxBytes)) {
          size += chunk.byteLength;
          yield chunk;
        }
      })(),
    );
    // Bodies of unknown length go up in parts (one PutObject when they fit in a single part).
    const upload = new Upload({
      client: this.client,
      params: { ...params, Body: counted },
      partSize: MULTIPART_PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    });
    const result = await upload.done();
    return { key, size, etag: result.ETag ?? '' };
  }

  async head(key: string): Promise<BlobInfo | null> {
    assertValidBlobKey(key);
    try {
      const result = await this.client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
      return {
        key,
        size: result.ContentLength ?? 0,
        contentType: result.ContentType ?? DEFAULT_CONTENT_TYPE,
        etag: result.ETag ?? '',
        lastModified: result.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async get(key: string, options: GetOptions = {}): Promise<BlobContent | null> {
    assertValidBlobKey(key);
    const { range } = options;
    if (range && (range.start < 0 || range.end < range.start)) {
      throw new RangeError('A range needs 0 <= start <= end');
    }
    try {
      const result = await this.client.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const contentLength = result.ContentLength ?? 0;
      const size = totalFromContentRange(result.ContentRange) ?? contentLength;
      const served = range ? { start: range.start, end: range.start + contentLength - 1 } : undefined;
      return {
        key,
        size,
        contentType: result.ContentType ?? DEFAULT_CONTENT_TYPE,
        etag: result.ETag ?? '',
        lastModified: result.LastModified ?? new Date(0),
        stream: result.Body as Readable,
        contentLength,
        ...(served ? { range: served } : {}),
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      if (statusOf(error) === 416) {
        const info = await this.head(key);
        if (!info) return null;
        throw new RangeNotSatisfiableError(key, info.size);
      }
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidBlobKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: key }));
  }

  /** Copy then delete: S3 has no rename. CopyObject handles objects up to 5 GB. */
  async move(fromKey: string, toKey: string, options: MoveOptions = {}): Promise<void> {
    assertValidBlobKey(fromKey);
    assertValidBlobKey(toKey);
    if (fromKey === toKey) {
      if (!(await this.head(fromKey))) throw new BlobNotFoundError(fromKey);
      return;
    }
    const source = `${this.#bucket}/${fromKey.split('/').map(encodeURIComponent).join('/')}`;
    try {
      const retype =
        options.contentType === undefined
          ? {}
          : { MetadataDirective: 'REPLACE' as const, ContentType: options.contentType };
      await this.client.send(
        new CopyObjectCommand({ Bucket: this.#bucket, Key: toKey, CopySource: source, ...retype }),
      );
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFoundError(fromKey);
      throw error;
    }
    await this.delete(fromKey);
  }

  async *list(prefix: string): AsyncIterable<BlobListEntry> {
    assertValidBlobPrefix(prefix);
    const pages = paginateListObjectsV2(
      { client: this.client, pageSize: this.#listPageSize },
      { Bucket: this.#bucket, ...(prefix ? { Prefix: prefix } : {}) },
    );
    for await (const page of pages) {
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        yield { key: object.Key, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) };
      }
    }
  }

  /**
   * A presigned PUT that binds the content type (the client must send exactly the returned headers) and, when
   * `contentLength` is given, the exact length. S3 cannot bind a maximum to a presigned PUT: without
   * `contentLength`, check the size with head() before accepting the upload.
   */
  async createUploadUrl(request: UploadUrlRequest): Promise<UploadUrl> {
    assertValidBlobKey(request.key);
    assertUploadUrlRequest(request);
    const signingDate = new Date(this.#now());
    const command = new PutObjectCommand({
      Bucket: this.#bucket,
      Key: request.key,
      ContentType: request.contentType,
      ...(request.contentLength !== undefined ? { ContentLength: request.contentLength } : {}),
    });
    const signableHeaders = new Set(['content-type']);
    if (request.contentLength !== undefined) signableHeaders.add('content-length');
    const url = await getSignedUrl(this.client, command, {
      expiresIn: request.expiresInSeconds,
      signingDate,
      signableHeaders,
    });
    const headers: Record<string, string> = { 'content-type': request.contentType };
    if (request.contentLength !== undefined) headers['content-length'] = String(request.contentLength);
    return {
      url,
      method: 'PUT',
      headers,
      expiresAt: new Date(signingDate.getTime() + request.expiresInSeconds * 1000),
    };
  }

  async createDownloadUrl(request: DownloadUrlRequest): Promise<DownloadUrl> {
    assertValidBlobKey(request.key);
    assertExpiry(request.expiresInSeconds);
    const signingDate = new Date(this.#now());
    const command = new GetObjectCommand({
      Bucket: this.#bucket,
      Key: request.key,
      ResponseCacheControl: 'private',
      ...(request.downloadName !== undefined
        ? { ResponseContentDisposition: contentDispositionFor(request.downloadName, request.disposition) }
        : request.disposition !== undefined
          ? { ResponseContentDisposition: request.disposition }
          : {}),
      ...(request.contentType !== undefined ? { ResponseContentType: request.contentType } : {}),
    });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: request.expiresInSeconds,
      signingDate,
    });
    return { url, expiresAt: new Date(signingDate.getTime() + request.expiresInSeconds * 1000) };
  }
}
