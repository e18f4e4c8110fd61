import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, buildService, start, stop, tmw } from './processes.ts';

/**
 * `npm run bench:files`: upload and download throughput of one file (BENCH_FILE_MIB, default 50 MiB) through
 * the service and its local disk store — signed PUT, registration, signed GET over HTTP on 127.0.0.1 — against
 * two ceilings, printed as ratios: a plain file copy on the same disk, and the same PUT and GET to a bare
 * node:http server writing one file (what HTTP on this machine allows). BENCH_FILE_RUNS (default 3) runs
 * each; the best run counts.
 */
const MiB = 1024 * 1024;
const size = Number(process.env.BENCH_FILE_MIB ?? 50) * MiB;
const runs = Number(process.env.BENCH_FILE_RUNS ?? 3);

async function timed(work: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Downloads a URL to nowhere, counting the bytes. */
async function drain(url: string): Promise<number> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`GET ${url}: ${res.status}`);
  let bytes = 0;
  for await (const chunk of res.body) bytes += (chunk as Uint8Array).byteLength;
  return bytes;
}

/** The ceiling: copy the same bytes from file to file on the same disk, flushed like the store flushes. */
async function plainCopy(dir: string, source: string, run: number): Promise<number> {
  const target = join(dir, `copy-${run}.bin`);
  const seconds = await timed(async () => {
    await copyFile(source, target);
    const handle = await open(target, 'r+');
    await handle.sync();
    await handle.close();
  });
  await rm(target);
  return seconds;
}

async function main() {
  const service = buildService();
  const dataDir = await mkdtemp(join(tmpdir(), 'tmw-bench-files-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    MAX_DOCUMENT_BYTES: String(size),
  };
  const email = `bench-files-${Date.now()}@example.test`;
  tmw(['user', 'create', '--email', email, '--password', 'bench-password'], env);
  const teamId = tmw(
    ['team', 'create', '--name', 'Bench files', '--owner', email, '--plan', 'enterprise'],
    env,
  );
  const body = randomBytes(size);
  const source = join(dataDir, 'source.bin');
  await writeFile(source, body);

  const server = await start(service, env, '/api/v1/health');
  const bare = await start(
    ['--import', './bin/typescript.js', 'bench/transfer-ceiling.ts'],
    { BENCH_CEILING_FILE: join(dataDir, 'ceiling.bin') },
    '/',
  );
  try {
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'bench-password' }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const best = {
      upload: Number.POSITIVE_INFINITY,
      download: Number.POSITIVE_INFINITY,
      copy: Number.POSITIVE_INFINITY,
      bareUpload: Number.POSITIVE_INFINITY,
      bareDownload: Number.POSITIVE_INFINITY,
    };
    for (let run = 0; run < runs; run++) {
      const media = `${server.url}/api/v1/teams/${teamId}/media`;
      const ticket = await api<{ id: number; uploadUrl: string; headers: Record<string, string> }>(
        media,
        token,
        'POST',
        {
          fileName: `bench-${run}.txt`,
          fileSize: size,
          mediaType: 'text/plain',
        },
      );
      const { 'content-length': _length, ...headers } = ticket.headers;
      best.upload = Math.min(
        best.upload,
        await timed(async () => {
          const res = await fetch(ticket.uploadUrl, { method: 'PUT', headers, body });
          if (!res.ok) throw new Error(`PUT: ${res.status} ${await res.text()}`);
        }),
      );
      const file = await api<{ url: string }>(`${media}/${ticket.id}/added`, token, 'POST');
      best.download = Math.min(
        best.download,
        await timed(async () => {
          if ((await drain(file.url)) !== size) throw new Error('short download');
        }),
      );
      best.copy = Math.min(best.copy, await plainCopy(dataDir, source, run));
      best.bareUpload = Math.min(
        best.bareUpload,
        await timed(async () => {
          const res = await fetch(`${bare.url}/blob`, { method: 'PUT', body });
          if (!res.ok) throw new Error(`bare PUT: ${res.status}`);
        }),
      );
      best.bareDownload = Math.min(
        best.bareDownload,
        await timed(async () => {
          if ((await drain(`${bare.url}/blob`)) !== size) throw new Error('short bare download');
        }),
      );
      await fetch(`${media}/${ticket.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
    }
    const rate = (seconds: number) => size / MiB / seconds;
    const rows = [
      ['plain file copy (ceiling)', rate(best.copy), 1, 1],
      ['bare node:http PUT to a file', rate(best.bareUpload), best.copy / best.bareUpload, 1],
      [
        'upload: signed PUT to the local store',
        rate(best.upload),
        best.copy / best.upload,
        best.bareUpload / best.upload,
      ],
      ['bare node:http GET of a file', rate(best.bareDownload), best.copy / best.bareDownload, 1],
      [
        'download: signed GET from the local store',
        rate(best.download),
        best.copy / best.download,
        best.bareDownload / best.download,
      ],
    ] as const;
    process.stdout.write(
      `\nfiles: ${size / MiB} MiB, best of ${runs} runs, local disk store under ${tmpdir()}\n\n`,
    );
    process.stdout.write(
      `${'scenario'.padEnd(44)}${'MiB/s'.padStart(10)}${'/ copy'.padStart(9)}${'/ bare http'.padStart(13)}\n`,
    );
    for (const [name, mibps, toCopy, toBare] of rows) {
      process.stdout.write(
        `${name.padEnd(44)}${mibps.toFixed(0).padStart(10)}${toCopy.toFixed(2).padStart(9)}${toBare.toFixed(2).padStart(13)}\n`,
      );
    }
  } finally {
    await stop(server.child);
    await stop(bare.child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`files bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
