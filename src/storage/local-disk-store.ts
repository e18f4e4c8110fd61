import type { Dirent, Stats } from 'node:fs';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, realpath, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_FOLDERS } from '../shared/private-files.ts';
import { withoutTrailing } from '../shared/text.ts';
import { writeFileAtomically } from './atomic-file.ts';
import { assertValidBlobKey, assertValidBlobPrefix, blobKeyProblem } from './blob-key.ts';
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
import { guessContentType } from './content-type.ts';
import { BlobNotFoundError, InvalidBlobKeyError, RangeNotSatisfiableError } from './errors.ts';
import { isMissing, resolveBlobPath } from './safe-path.ts';
import { signBlobToken } from './signing.ts';

export type LocalDiskStoreOptions = {
  /** Directory holding the blobs (the service passes `<DATA_DIR>/blobs`); created when missing. */
  root: string;
  /** The service's own origin, e.g. `https://api.example.com`: signed URLs point at its /api/v1/files routes. */
  publicBaseUrl: string;
  signingSecret: string;
  /** Milliseconds since the epoch, like Date.now. */
  now?: () => number;
};

export const LOCAL_UPLOAD_PATH = '/api/v1/files/upload';
export const LOCAL_DOWNLOAD_PATH = '/api/v1/files/download';

// Inside the root, so renames never cross filesystems; dot names cannot be keys, so they never clash with blobs.
const TEMP_DIRECTORY = '.tmp';
const META_DIRECTORY = '.meta';
const META_SUFFIX = '.json';
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

type Layout = { root: string; temp: string; meta: string };

function etagOf(stats: Stats): string {
  return `"${stats.ino.toString(16)}-${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
}

function sortKey(name: string, isDirectory: boolean): Buffer {
  // Listing directories as "name/" makes the walk yield keys in the same byte order S3 uses.
  return Buffer.from(isDirectory ? `${name}/` : name, 'utf8');
}

/** Blobs as files under one directory; content types live in small JSON files beside them under `.meta/`. */
export class LocalDiskStore implements BlobStore {
  readonly driver = 'local' as const;
  readonly #options: LocalDiskStoreOptions;
  readonly #baseUrl: string;
  readonly #now: () => number;
  #layout: Promise<Layout> | undefined;

  constructor(options: LocalDiskStoreOptions) {
    if (!options.signingSecret) throw new TypeError('LocalDiskStore needs a signing secret');
    this.#options = options;
    this.#baseUrl = withoutTrailing(options.publicBaseUrl, (c) => c === '/');
    this.#now = options.now ?? Date.now;
  }

  #paths(): Promise<Layout> {
    this.#layout ??= (async () => {
      await mkdir(this.#options.root, PRIVATE_FOLDERS);
      const root = await realpath(this.#options.root);
      const layout = { root, temp: path.join(root, TEMP_DIRECTORY), meta: path.join(root, META_DIRECTORY) };
      await mkdir(layout.temp, PRIVATE_FOLDERS);
      await mkdir(layout.meta, PRIVATE_FOLDERS);
      return layout;
    })().catch((error: unknown) => {
      this.#layout = undefined;
      throw error;
    });
    return this.#layout;
  }

  async put(key: string, body: BlobBody, options: PutOptions): Promise<PutResult> {
    const layout = await this.#paths();
    const file = await resolveBlobPath(layout.root, key, { createParents: true });
    const { size } = await writeFileAtomically(layout.temp, file, bodyChunks(body, options.maxBytes));
    const meta = await resolveBlobPath(layout.meta, key, { createParents: true, suffix: META_SUFFIX });
    const metaBody = Buffer.from(JSON.stringify({ contentType: options.contentType }), 'utf8');
    await writeFileAtomically(layout.temp, meta, bodyChunks(metaBody));
    return { key, size, etag: etagOf(await lstat(file)) };
  }

  async #contentType(layout: Layout, key: string): Promise<string> {
    try {
      const meta = await resolveBlobPath(layout.meta, key, { suffix: META_SUFFIX });
      const parsed: unknown = JSON.parse(await readFile(meta, 'utf8'));
      const contentType = (parsed as { contentType?: unknown }).contentType;
      if (typeof contentType === 'string' && contentType !== '') return contentType;
    } catch {
      // No (or an unreadable) record: fall back to the key's extension.
    }
    return guessContentType(key) ?? DEFAULT_CONTENT_TYPE;
  }

  async #info(layout: Layout, key: string, stats: Stats): Promise<BlobInfo> {
    return {
      key,
      size: stats.size,
      contentType: await this.#contentType(layout, key),
      etag: etagOf(stats),
      lastModified: stats.mtime,
    };
  }

  async head(key: string): Promise<BlobInfo | null> {
    const layout = await this.#paths();
    const file = await resolveBlobPath(layout.root, key);
    let stats: Stats;
    try {
      stats = await lstat(file);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    if (stats.isSymbolicLink()) throw new InvalidBlobKeyError(key, 'is a symbolic link');
    if (!stats.isFile()) return null;
    return this.#info(layout, key, stats);
  }

  async get(key: string, options: GetOptions = {}): Promise<BlobContent | null> {
    const layout = await this.#paths();
    const file = await resolveBlobPath(layout.root, key);
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      if (isMissing(error)) return null;
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
        throw new InvalidBlobKeyError(key, 'is a symbolic link');
      }
      throw error;
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) {
        await handle.close();
        return null;
      }
      const info = await this.#info(layout, key, stats);
      const { range } = options;
      if (range && (range.start < 0 || range.end < range.start || range.start >= stats.size)) {
        throw new RangeNotSatisfiableError(key, stats.size);
      }
      const bounds = range ? { start: range.start, end: Math.min(range.end, stats.size - 1) } : undefined;
      const stream = handle.createReadStream(bounds ? { ...bounds } : {});
      return {
        ...info,
        stream,
        contentLength: bounds ? bounds.end - bounds.start + 1 : stats.size,
        ...(bounds ? { range: bounds } : {}),
      };
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const layout = await this.#paths();
    const file = await resolveBlobPath(layout.root, key);
    await unlinkIfPresent(file);
    await unlinkIfPresent(await resolveBlobPath(layout.meta, key, { suffix: META_SUFFIX }));
  }

  async move(fromKey: string, toKey: string, options: MoveOptions = {}): Promise<void> {
    const layout = await this.#paths();
    const from = await resolveBlobPath(layout.root, fromKey);
    const stats = await lstat(from).catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (!stats?.isFile()) {
      if (stats?.isSymbolicLink()) throw new InvalidBlobKeyError(fromKey, 'is a symbolic link');
      throw new BlobNotFoundError(fromKey);
    }
    if (fromKey === toKey) return;
    const to = await resolveBlobPath(layout.root, toKey, { createParents: true });
    const fromMeta = await resolveBlobPath(layout.meta, fromKey, { suffix: META_SUFFIX });
    const toMeta = await resolveBlobPath(layout.meta, toKey, { createParents: true, suffix: META_SUFFIX });
    try {
      await rename(from, to);
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(fromKey);
      throw error;
    }
    if (options.contentType !== undefined) {
      const metaBody = Buffer.from(JSON.stringify({ contentType: options.contentType }), 'utf8');
      await writeFileAtomically(layout.temp, toMeta, bodyChunks(metaBody));
      await unlinkIfPresent(fromMeta);
      return;
    }
    try {
      await rename(fromMeta, toMeta);
    } catch (error) {
      if (!isMissing(error)) throw error;
      await unlinkIfPresent(toMeta);
    }
  }

  async *list(prefix: string): AsyncIterable<BlobListEntry> {
    assertValidBlobPrefix(prefix);
    const layout = await this.#paths();
    const slash = prefix.lastIndexOf('/');
    const base = slash < 0 ? '' : prefix.slice(0, slash + 1);
    let start = layout.root;
    if (base !== '') {
      start = path.join(layout.root, ...base.slice(0, -1).split('/'));
      try {
        const real = await realpath(start);
        if (!real.startsWith(layout.root + path.sep)) return;
      } catch (error) {
        if (isMissing(error)) return;
        throw error;
      }
    }
    yield* walk(start, base, prefix);
  }

  /**
   * Removes temporary files older than `olderThanSeconds` that writes interrupted by a crash left behind
   * (they are never visible as blobs). Meant for a periodic cleanup job; returns how many were removed.
   */
  async removeStaleTemporaryFiles(olderThanSeconds = 86_400): Promise<number> {
    const layout = await this.#paths();
    const cutoff = this.#now() - olderThanSeconds * 1000;
    let removed = 0;
    for (const name of await readdir(layout.temp)) {
      const file = path.join(layout.temp, name);
      const stats = await lstat(file).catch(() => null);
      if (stats?.isFile() && stats.mtimeMs <= cutoff) {
        await unlinkIfPresent(file);
        removed++;
      }
    }
    return removed;
  }

  async createUploadUrl(request: UploadUrlRequest): Promise<UploadUrl> {
    assertValidBlobKey(request.key);
    assertUploadUrlRequest(request);
    const expiresAt = Math.floor(this.#now() / 1000) + request.expiresInSeconds;
    const token = signBlobToken(
      {
        method: 'PUT',
        key: request.key,
        expiresAt,
        maxBytes: request.contentLength ?? request.maxBytes,
        contentType: request.contentType,
      },
      this.#options.signingSecret,
    );
    return {
      url: `${this.#baseUrl}${LOCAL_UPLOAD_PATH}?token=${token}`,
      method: 'PUT',
      headers: { 'content-type': request.contentType },
      expiresAt: new Date(expiresAt * 1000),
    };
  }

  async createDownloadUrl(request: DownloadUrlRequest): Promise<DownloadUrl> {
    assertValidBlobKey(request.key);
    assertExpiry(request.expiresInSeconds);
    const expiresAt = Math.floor(this.#now() / 1000) + request.expiresInSeconds;
    const token = signBlobToken(
      {
        method: 'GET',
        key: request.key,
        expiresAt,
        ...(request.downloadName !== undefined ? { downloadName: request.downloadName } : {}),
        ...(request.contentType !== undefined ? { contentType: request.contentType } : {}),
        ...(request.disposition !== undefined ? { disposition: request.disposition } : {}),
      },
      this.#options.signingSecret,
    );
    return {
      url: `${this.#baseUrl}${LOCAL_DOWNLOAD_PATH}?token=${token}`,
      expiresAt: new Date(expiresAt * 1000),
    };
  }
}

async function unlinkIfPresent(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!isMissing(error) && code !== 'EISDIR' && code !== 'EPERM') throw error;
  }
}

async function* walk(directory: string, keyPrefix: string, wanted: string): AsyncGenerator<BlobListEntry> {
  let entries: Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  const sorted = entries
    .filter((entry) => !entry.name.startsWith('.') && (entry.isFile() || entry.isDirectory()))
    .map((entry) => ({ entry, order: sortKey(entry.name, entry.isDirectory()) }))
    .sort((a, b) => Buffer.compare(a.order, b.order));
  for (const { entry } of sorted) {
    const key = `${keyPrefix}${entry.name}`;
    if (entry.isDirectory()) {
      const childPrefix = `${key}/`;
      if (childPrefix.startsWith(wanted) || wanted.startsWith(childPrefix)) {
        yield* walk(path.join(directory, entry.name), childPrefix, wanted);
      }
    } else if (key.startsWith(wanted) && blobKeyProblem(key) === undefined) {
      const stats = await lstat(path.join(directory, entry.name)).catch(() => null);
      if (stats?.isFile()) yield { key, size: stats.size, lastModified: stats.mtime };
    }
  }
}
