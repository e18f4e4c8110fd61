import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';

export type S3TestServer = {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
};

// Runs in the child. It exits when the parent goes away (the IPC channel closes), so no server outlives a test run.
// s3rver canonicalises SigV4 query strings with encodeURIComponent, which leaves !'()* as they are where SigV4
// (and AWS, R2, MinIO) encode them: presigned URLs with such characters (filename*=UTF-8''… in a response
// Content-Disposition) would fail there only. The child encodes the way SigV4 does.
const SERVER_PROGRAM = `
const encode = encodeURIComponent;
globalThis.encodeURIComponent = (value) =>
  encode(value).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
const S3rver = require(process.env.S3RVER_MODULE);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: process.env.S3RVER_DIRECTORY,
  configureBuckets: [{ name: process.env.S3RVER_BUCKET }],
});
// s3rver has no ListParts and no AbortMultipartUpload (resumable uploads use both): served here from its own
// upload folders, just before its router. These two skip the signature check.
const fsp = require('node:fs/promises');
const join = require('node:path').join;
const xml = (body) => '<?xml version="1.0" encoding="UTF-8"?>' + body;
server.middleware.splice(server.middleware.length - 1, 0, async (ctx, next) => {
  const uploadId = ctx.query.uploadId;
  const match = new RegExp('^/([^/]+)/(.+)$').exec(ctx.path);
  if (!match || typeof uploadId !== 'string' || !/^[0-9a-f]+$/.test(uploadId)) return next();
  if (ctx.method !== 'GET' && ctx.method !== 'DELETE') return next();
  const folder = join(server.store.getResourcePath(match[1], undefined, 'uploads'), uploadId);
  let names;
  try {
    names = await fsp.readdir(folder);
  } catch {
    ctx.status = 404;
    ctx.type = 'application/xml';
    ctx.body = xml('<Error><Code>NoSuchUpload</Code><Message>No such upload</Message></Error>');
    return;
  }
  if (ctx.method === 'DELETE') {
    await fsp.rm(folder, { recursive: true, force: true });
    ctx.status = 204;
    return;
  }
  const numbers = names.filter((n) => /^[0-9]+$/.test(n)).map(Number).sort((a, b) => a - b);
  const parts = await Promise.all(numbers.map(async (n) => {
    const file = join(folder, String(n));
    const [stats, md5] = await Promise.all([fsp.stat(file), fsp.readFile(file + '.md5', 'utf8')]);
    return '<Part><PartNumber>' + n + '</PartNumber><ETag>"' + md5 + '"</ETag><Size>' + stats.size + '</Size></Part>';
  }));
  ctx.type = 'application/xml';
  ctx.body = xml('<ListPartsResult><Bucket>' + match[1] + '</Bucket><UploadId>' + uploadId +
    '</UploadId><IsTruncated>false</IsTruncated>' + parts.join('') + '</ListPartsResult>');
});
server.run().then(
  (address) => process.send({ port: address.port }),
  (error) => { console.error(error); process.exit(1); },
);
process.on('disconnect', () => process.exit(0));
`;

function waitForPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port?: unknown }) => {
      if (typeof message.port === 'number') resolve(message.port);
      else reject(new Error('s3rver did not report its port'));
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with code ${code}`)));
    child.once('error', reject);
  });
}

/**
 * A real S3-protocol server (s3rver, a devDependency) on 127.0.0.1 at a free port, storing into a fresh temp
 * directory. It checks SigV4 signatures, so presigned URLs are verified as S3 would. It runs in a child process
 * because its continuation tokens use DES, which Node 20's OpenSSL 3 only offers with the legacy provider.
 */
export async function startS3TestServer(bucket = 'test-bucket'): Promise<S3TestServer> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'tmw-s3rver-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', SERVER_PROGRAM], {
    env: {
      ...process.env,
      S3RVER_MODULE: createRequire(import.meta.url).resolve('@20minutes/s3rver'),
      S3RVER_DIRECTORY: directory,
      S3RVER_BUCKET: bucket,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let port: number;
  try {
    port = await waitForPort(child);
  } catch (error) {
    child.kill();
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    // s3rver's built-in account.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async stop() {
      if (child.connected) child.disconnect();
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * s3rver checks signatures of bucket-level requests against `/bucket` while the SDK sends and signs them as
 * `/bucket/` (ListObjectsV2). AWS, R2 and MinIO accept either form, so test clients send the form s3rver
 * expects; the request is signed after this change, so signatures are still checked in full.
 */
export function useBucketPathWithoutSlash(client: S3Client): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { path?: unknown };
      if (typeof request.path === 'string' && /^\/[^/]+\/$/.test(request.path)) {
        request.path = request.path.slice(0, -1);
      }
      return next(args);
    },
    { step: 'build', name: 'bucketPathWithoutSlash' },
  );
}
