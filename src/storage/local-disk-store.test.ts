import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BlobListEntry } from './blob-store.ts';
import {
  BlobNotFoundError,
  BlobTooLargeError,
  InvalidBlobKeyError,
  RangeNotSatisfiableError,
} from './errors.ts';
import { LocalDiskStore } from './local-disk-store.ts';
import { verifyBlobToken } from './signing.ts';

const secret = 'local-store-test-secret-0123456789abcdef';
let base: string;
let root: string;
let store: LocalDiskStore;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'tmw-local-store-'));
  root = path.join(base, 'blobs');
  store = new LocalDiskStore({ root, publicBaseUrl: 'https://api.example.test/', signingSecret: secret });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function collect(iterable: AsyncIterable<BlobListEntry>): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of iterable) keys.push(entry.key);
  return keys;
}

async function* failingBody(chunks: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < chunks; i++) yield Buffer.alloc(1024, 'x');
  throw new Error('connection reset');
}

describe('LocalDiskStore round trip', () => {
  it('puts, heads, gets and ranges a buffer', async () => {
    const body = Buffer.from('0123456789abcdefghij');
    const put = await store.put('teams/12/media/abc.wav', body, { contentType: 'audio/wav' });
    expect(put).toMatchObject({ key: 'teams/12/media/abc.wav', size: 20 });
    expect(put.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+-[0-9a-f]+"$/);

    const info = await store.head('teams/12/media/abc.wav');
    expect(info).toMatchObject({
      key: 'teams/12/media/abc.wav',
      size: 20,
      contentType: 'audio/wav',
      etag: put.etag,
    });
    expect(info?.lastModified).toBeInstanceOf(Date);
    expect(await readFile(path.join(root, 'teams/12/media/abc.wav'), 'utf8')).toBe(body.toString());

    const whole = await store.get('teams/12/media/abc.wav');
    expect(whole).toMatchObject({ size: 20, contentLength: 20, contentType: 'audio/wav', etag: put.etag });
    expect(await text(whole?.stream as Readable)).toBe('0123456789abcdefghij');

    const part = await store.get('teams/12/media/abc.wav', { range: { start: 5, end: 9 } });
    expect(part).toMatchObject({ size: 20, contentLength: 5, range: { start: 5, end: 9 } });
    expect(await text(part?.stream as Readable)).toBe('56789');

    const tail = await store.get('teams/12/media/abc.wav', { range: { start: 15, end: 1000 } });
    expect(tail).toMatchObject({ contentLength: 5, range: { start: 15, end: 19 } });
    expect(await text(tail?.stream as Readable)).toBe('fghij');

    await expect(store.get('teams/12/media/abc.wav', { range: { start: 20, end: 25 } })).rejects.toThrow(
      RangeNotSatisfiableError,
    );
  });

  it('streams a body in and reports its size', async () => {
    const chunks = Array.from({ length: 50 }, (_, i) => Buffer.alloc(4096, i));
    const put = await store.put('a/stream.bin', Readable.from(chunks), {
      contentType: 'application/octet-stream',
    });
    expect(put.size).toBe(50 * 4096);
    expect((await stat(path.join(root, 'a/stream.bin'))).size).toBe(50 * 4096);
  });

  it('answers null for missing blobs and for directories', async () => {
    await store.put('teams/1/x.txt', Buffer.from('x'), { contentType: 'text/plain' });
    expect(await store.head('teams/1/missing.txt')).toBeNull();
    expect(await store.get('teams/1/missing.txt')).toBeNull();
    expect(await store.head('nowhere/at/all.txt')).toBeNull();
    expect(await store.head('teams/1')).toBeNull();
    expect(await store.get('teams/1')).toBeNull();
  });

  it('replaces a blob, and gives the new one a new ETag', async () => {
    const first = await store.put('k/a.txt', Buffer.from('one'), { contentType: 'text/plain' });
    const second = await store.put('k/a.txt', Buffer.from('two!'), { contentType: 'text/markdown' });
    expect(second.etag).not.toBe(first.etag);
    expect(await store.head('k/a.txt')).toMatchObject({ size: 4, contentType: 'text/markdown' });
  });

  it('falls back to the extension when the content-type record is gone', async () => {
    await store.put('k/song.flac', Buffer.from('f'), { contentType: 'audio/x-flac' });
    await rm(path.join(root, '.meta/k/song.flac.json'));
    expect((await store.head('k/song.flac'))?.contentType).toBe('audio/flac');
  });
});

describe('LocalDiskStore atomic writes', () => {
  it('leaves nothing under the key when the body fails midway', async () => {
    await expect(store.put('k/broken.wav', failingBody(10), { contentType: 'audio/wav' })).rejects.toThrow(
      'connection reset',
    );
    expect(await store.head('k/broken.wav')).toBeNull();
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
  });

  it('keeps the previous blob intact when a replacement fails', async () => {
    await store.put('k/a.wav', Buffer.from('original'), { contentType: 'audio/wav' });
    await expect(store.put('k/a.wav', failingBody(3), { contentType: 'audio/wav' })).rejects.toThrow();
    const current = await store.get('k/a.wav');
    expect(await text(current?.stream as Readable)).toBe('original');
  });

  it('stops a body past maxBytes and stores nothing', async () => {
    const body = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(store.put('k/big.wav', body, { contentType: 'audio/wav', maxBytes: 1000 })).rejects.toThrow(
      BlobTooLargeError,
    );
    await expect(
      store.put('k/big.wav', Buffer.alloc(1001), { contentType: 'audio/wav', maxBytes: 1000 }),
    ).rejects.toThrow(BlobTooLargeError);
    expect(await store.head('k/big.wav')).toBeNull();
    await store.put('k/fits.wav', Buffer.alloc(1000), { contentType: 'audio/wav', maxBytes: 1000 });
    expect((await store.head('k/fits.wav'))?.size).toBe(1000);
  });

  it('never shows a half-written file while a write is in progress', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* slowBody() {
      yield Buffer.alloc(4096, 'a');
      await gate;
      yield Buffer.alloc(4096, 'b');
    }
    const writing = store.put('k/slow.wav', slowBody(), { contentType: 'audio/wav' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await store.head('k/slow.wav')).toBeNull();
    expect((await readdir(path.join(root, '.tmp'))).length).toBe(1);
    release();
    await writing;
    expect((await store.head('k/slow.wav'))?.size).toBe(8192);
  });

  it('leaves no file under the key when the writing process is killed', async () => {
    const script = path.join(base, 'writer.mts');
    const storeModule = pathToFileURL(path.resolve('src/storage/local-disk-store.ts')).href;
    await writeFile(
      script,
      `import { LocalDiskStore } from ${JSON.stringify(storeModule)};
const store = new LocalDiskStore({ root: process.argv[2], publicBaseUrl: 'http://x', signingSecret: 's' });
async function* forever() {
  for (let i = 0; ; i++) {
    yield Buffer.alloc(65536, i % 256);
    if (i === 4) process.stdout.write('writing\\n');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
await store.put('teams/1/media/killed.wav', forever(), { contentType: 'audio/wav' });
`,
    );
    const child = spawn(process.execPath, ['--import', './bin/typescript.js', script, root], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('writing')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`writer exited early (${code}): ${stderr}`)));
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    expect(await store.head('teams/1/media/killed.wav')).toBeNull();
    const leftovers = await readdir(path.join(root, '.tmp'));
    expect(leftovers).toHaveLength(1);
    expect((await stat(path.join(root, '.tmp', leftovers[0] as string))).size).toBeGreaterThan(0);
    expect(await collect(store.list(''))).toEqual([]);

    expect(await store.removeStaleTemporaryFiles(3600)).toBe(0);
    const later = new LocalDiskStore({
      root,
      publicBaseUrl: 'http://x',
      signingSecret: secret,
      now: () => Date.now() + 7_200_000,
    });
    expect(await later.removeStaleTemporaryFiles(3600)).toBe(1);
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
  }, 30_000);
});

describe('LocalDiskStore list, move and delete', () => {
  beforeEach(async () => {
    for (const key of [
      'teams/2/media/b.wav',
      'teams/2/media/a.wav',
      'teams/2/media-old/c.wav',
      'teams/2/media/pending/p.wav',
      'teams/20/media/d.wav',
      'teams/2/media-a.wav',
    ]) {
      await store.put(key, Buffer.from(key), { contentType: 'audio/wav' });
    }
  });

  it('lists by prefix in ascending byte order, with sizes', async () => {
    expect(await collect(store.list('teams/2/'))).toEqual([
      'teams/2/media-a.wav',
      'teams/2/media-old/c.wav',
      'teams/2/media/a.wav',
      'teams/2/media/b.wav',
      'teams/2/media/pending/p.wav',
    ]);
    expect(await collect(store.list('teams/2/media/'))).toEqual([
      'teams/2/media/a.wav',
      'teams/2/media/b.wav',
      'teams/2/media/pending/p.wav',
    ]);
    expect(await collect(store.list('teams/2'))).toHaveLength(6);
    expect(await collect(store.list('teams/2/media-'))).toEqual([
      'teams/2/media-a.wav',
      'teams/2/media-old/c.wav',
    ]);
    expect(await collect(store.list('teams/3/'))).toEqual([]);
    expect(await collect(store.list(''))).toHaveLength(6);
    for await (const entry of store.list('teams/20/')) {
      expect(entry).toMatchObject({ key: 'teams/20/media/d.wav', size: 'teams/20/media/d.wav'.length });
      expect(entry.lastModified).toBeInstanceOf(Date);
    }
  });

  it('moves a pending blob to its final key with its content type', async () => {
    await store.move('teams/2/media/pending/p.wav', 'teams/2/media/final/p.wav');
    expect(await store.head('teams/2/media/pending/p.wav')).toBeNull();
    const moved = await store.get('teams/2/media/final/p.wav');
    expect(moved?.contentType).toBe('audio/wav');
    expect(await text(moved?.stream as Readable)).toBe('teams/2/media/pending/p.wav');
    await expect(store.move('teams/2/media/pending/p.wav', 'x/y.wav')).rejects.toThrow(BlobNotFoundError);
  });

  it('replaces the destination when moving onto an existing key', async () => {
    await store.move('teams/2/media/a.wav', 'teams/2/media/b.wav');
    const b = await store.get('teams/2/media/b.wav');
    expect(await text(b?.stream as Readable)).toBe('teams/2/media/a.wav');
  });

  it('deletes idempotently', async () => {
    await store.delete('teams/2/media/a.wav');
    await store.delete('teams/2/media/a.wav');
    await store.delete('never/existed.wav');
    expect(await store.head('teams/2/media/a.wav')).toBeNull();
    expect(await collect(store.list('teams/2/media/'))).toEqual([
      'teams/2/media/b.wav',
      'teams/2/media/pending/p.wav',
    ]);
  });
});

describe('LocalDiskStore path safety', () => {
  let outside: string;

  beforeEach(async () => {
    outside = path.join(base, 'outside');
    await mkdir(outside, { recursive: true });
    await writeFile(path.join(outside, 'secret.txt'), 'top secret');
    await store.put('teams/1/ok.txt', Buffer.from('ok'), { contentType: 'text/plain' });
  });

  it('refuses traversal, absolute and other invalid keys in every method', async () => {
    for (const key of [
      '../outside/secret.txt',
      '/etc/passwd',
      'teams/../../outside/secret.txt',
      'a\\..\\b',
      '',
    ]) {
      await expect(store.head(key)).rejects.toThrow(InvalidBlobKeyError);
      await expect(store.get(key)).rejects.toThrow(InvalidBlobKeyError);
      await expect(store.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(
        InvalidBlobKeyError,
      );
      await expect(store.delete(key)).rejects.toThrow(InvalidBlobKeyError);
      await expect(store.move('teams/1/ok.txt', key)).rejects.toThrow(InvalidBlobKeyError);
      await expect(store.createDownloadUrl({ key, expiresInSeconds: 60 })).rejects.toThrow(
        InvalidBlobKeyError,
      );
    }
    await expect(collect(store.list('../'))).rejects.toThrow(InvalidBlobKeyError);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  it('refuses a directory symlink that leads out of the root', async () => {
    await symlink(outside, path.join(root, 'teams', 'escape'));
    await expect(store.head('teams/escape/secret.txt')).rejects.toThrow(InvalidBlobKeyError);
    await expect(store.get('teams/escape/secret.txt')).rejects.toThrow(InvalidBlobKeyError);
    await expect(
      store.put('teams/escape/new.txt', Buffer.from('x'), { contentType: 'text/plain' }),
    ).rejects.toThrow(InvalidBlobKeyError);
    await expect(
      store.put('teams/escape/deeper/dir/new.txt', Buffer.from('x'), { contentType: 'text/plain' }),
    ).rejects.toThrow(InvalidBlobKeyError);
    await expect(store.delete('teams/escape/secret.txt')).rejects.toThrow(InvalidBlobKeyError);
    await expect(store.move('teams/escape/secret.txt', 'teams/1/stolen.txt')).rejects.toThrow(
      InvalidBlobKeyError,
    );
    await expect(store.move('teams/1/ok.txt', 'teams/escape/ok.txt')).rejects.toThrow(InvalidBlobKeyError);
    expect(await collect(store.list('teams/escape/'))).toEqual([]);
    expect(await collect(store.list(''))).toEqual(['teams/1/ok.txt']);
    expect((await readdir(outside)).sort()).toEqual(['secret.txt']);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  it('refuses a file symlink in place of a blob', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'teams', '1', 'link.txt'));
    await expect(store.head('teams/1/link.txt')).rejects.toThrow(InvalidBlobKeyError);
    await expect(store.get('teams/1/link.txt')).rejects.toThrow(InvalidBlobKeyError);
    await expect(store.move('teams/1/link.txt', 'teams/1/copied.txt')).rejects.toThrow(InvalidBlobKeyError);
    expect(await collect(store.list('teams/1/'))).toEqual(['teams/1/ok.txt']);
  });

  it('allows a directory symlink that stays inside the root', async () => {
    await mkdir(path.join(root, 'real'), { recursive: true });
    await symlink(path.join(root, 'real'), path.join(root, 'alias'));
    await store.put('alias/inside.txt', Buffer.from('fine'), { contentType: 'text/plain' });
    expect((await store.head('real/inside.txt'))?.size).toBe(4);
  });
});

describe('LocalDiskStore signed URLs', () => {
  const now = () => 1_750_000_000_000;

  it('creates an upload URL on the service bound to key, type and size', async () => {
    const clocked = new LocalDiskStore({
      root,
      publicBaseUrl: 'https://api.example.test/',
      signingSecret: secret,
      now,
    });
    const upload = await clocked.createUploadUrl({
      key: 'teams/1/media/pending/u.wav',
      contentType: 'audio/wav',
      maxBytes: 5000,
      expiresInSeconds: 900,
    });
    expect(upload.method).toBe('PUT');
    expect(upload.headers).toEqual({ 'content-type': 'audio/wav' });
    expect(upload.expiresAt.toISOString()).toBe(new Date(1_750_000_900_000).toISOString());
    const url = new URL(upload.url);
    expect(url.origin + url.pathname).toBe('https://api.example.test/api/v1/files/upload');
    const verified = verifyBlobToken(url.searchParams.get('token') ?? '', { secret, method: 'PUT', now });
    expect(verified).toEqual({
      ok: true,
      claims: {
        method: 'PUT',
        key: 'teams/1/media/pending/u.wav',
        expiresAt: 1_750_000_900,
        maxBytes: 5000,
        contentType: 'audio/wav',
      },
    });
    const exact = await clocked.createUploadUrl({
      key: 'teams/1/media/pending/u.wav',
      contentType: 'audio/wav',
      maxBytes: 5000,
      contentLength: 1234,
      expiresInSeconds: 900,
    });
    const exactToken = new URL(exact.url).searchParams.get('token') ?? '';
    expect(verifyBlobToken(exactToken, { secret, method: 'PUT', now })).toMatchObject({
      claims: { maxBytes: 1234 },
    });
  });

  it('creates a download URL with the download name and content type', async () => {
    const clocked = new LocalDiskStore({
      root,
      publicBaseUrl: 'https://api.example.test',
      signingSecret: secret,
      now,
    });
    const download = await clocked.createDownloadUrl({
      key: 'teams/1/media/u.wav',
      expiresInSeconds: 60,
      downloadName: 'Mix v2.wav',
      contentType: 'audio/x-wav',
    });
    const url = new URL(download.url);
    expect(url.pathname).toBe('/api/v1/files/download');
    expect(verifyBlobToken(url.searchParams.get('token') ?? '', { secret, method: 'GET', now })).toEqual({
      ok: true,
      claims: {
        method: 'GET',
        key: 'teams/1/media/u.wav',
        expiresAt: 1_750_000_060,
        downloadName: 'Mix v2.wav',
        contentType: 'audio/x-wav',
      },
    });
  });

  it('refuses impossible URL requests', async () => {
    await expect(
      store.createUploadUrl({ key: 'a/b.wav', contentType: 'audio/wav', maxBytes: 0, expiresInSeconds: 60 }),
    ).rejects.toThrow(RangeError);
    await expect(
      store.createUploadUrl({ key: 'a/b.wav', contentType: 'audio/wav', maxBytes: 10, expiresInSeconds: 0 }),
    ).rejects.toThrow(RangeError);
    await expect(
      store.createUploadUrl({
        key: 'a/b.wav',
        contentType: 'audio/wav',
        maxBytes: 10,
        contentLength: 11,
        expiresInSeconds: 60,
      }),
    ).rejects.toThrow(RangeError);
    await expect(store.createDownloadUrl({ key: 'a/b.wav', expiresInSeconds: 604_801 })).rejects.toThrow(
      RangeError,
    );
  });
});
