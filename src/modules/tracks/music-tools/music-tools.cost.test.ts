import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newDataDir } from '../../../../test/helpers/data-dir.ts';
import { cloneDatabase } from '../../../../test/helpers/database.ts';
import { type ServerProcess, startServer } from '../../../../test/helpers/server-process.ts';
import { MAX_ANALYSED_SECONDS } from '../../../media/music-analysis.ts';
import { clickTrack } from '../../../media/music-test-audio.ts';
import { encodeWav } from '../../../media/test-audio.ts';
import { call as callServer } from '../../webhooks/fixtures/server-api.ts';

/**
 * Bounds of cost, not performance figures: the longest wait of a health probe sent every 50 ms and the
 * growth of the server process's resident memory while `analyze` runs on 15 minutes of audio. Before the
 * analysis moved to its own process, the same input held every answer for 32 s and grew the process by
 * 1.5 GiB; with generous margins for a busy two-core machine, these still tell the two apart.
 */
const MAX_PROBE_WAIT_MS = 250;
const MAX_RSS_GROWTH_BYTES = 64 * 2 ** 20;
const SECONDS = 15 * 60;
const RATE = 4_000;
const BPM = 120;

let server: ServerProcess | undefined;
let dataDir = '';

beforeAll(async () => {
  dataDir = await newDataDir('tmw-music-cost-');
  const database = process.env.DATABASE_URL ? await cloneDatabase() : undefined;
  await database?.close();
  server = await startServer(
    { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url! } : {}) },
    60_000,
  );
}, 90_000);

afterAll(() => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** The parts of the API's answers this test reads. */
type Answer = {
  id: number | string;
  access_token?: string;
  status?: string;
  error?: unknown;
  upload: { uploadUrl: string; headers: Record<string, string>; fileKey: string };
  result: { analysedSeconds: number; durationSeconds: number; tempoBpm: number };
};

async function call(method: string, path: string, token?: string, body?: unknown) {
  const { status, body: answer } = await callServer(server!, method, path, token, body);
  return { status, body: answer as unknown as Answer };
}

/** A version whose audio is `bytes`, made through the API as a client makes it. */
async function versionWith(bytes: Buffer) {
  const signup = await call('POST', '/api/v1/auth/signup', undefined, {
    email: `cost-${randomBytes(4).toString('hex')}@example.test`,
    password: 'music-cost-password',
  });
  expect(signup.status).toBe(201);
  const token = String(signup.body.access_token);
  const team = await call('POST', '/api/v1/teams/', token, { name: 'Cost team' });
  const track = await call('POST', '/api/v1/tracks/', token, {
    title: 'Long take',
    team_id: team.body.id,
    audio_file_name: 'first.wav',
  });
  expect(track.status, JSON.stringify(track.body)).toBe(201);
  const base = `/api/v1/tracks/${track.body.id}/versions`;
  const version = await call('POST', `${base}/create`, token, { audio_file_name: 'take.wav' });
  expect(version.status, JSON.stringify(version.body)).toBe(201);
  // The signed URL names the configured public origin; this process listens elsewhere.
  const signed = new URL(version.body.upload.uploadUrl);
  const { 'content-length': _length, ...headers } = version.body.upload.headers;
  const put = await fetch(`${server!.url}${signed.pathname}${signed.search}`, {
    method: 'PUT',
    headers,
    body: bytes,
  });
  expect(put.status).toBe(200);
  const registered = await call('PUT', `${base}/${version.body.id}/audio`, token, {
    fileKey: version.body.upload.fileKey,
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  return { token, tools: `${base}/${version.body.id}/music-tools` };
}

async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /VmRSS:\s+(\d+) kB/.exec(status);
  return Number(kib?.[1]) * 1024;
}

it.runIf(process.platform === 'linux')(
  'analyzes 15 minutes of audio with the server answering and its memory flat',
  async () => {
    const wav = encodeWav([clickTrack({ sampleRate: RATE, seconds: SECONDS, bpm: BPM })], RATE, 'pcm8');
    const { token, tools } = await versionWith(wav);
    // The upload's own waveform job has a moment to finish before the baseline is read.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const pid = server!.child.pid!;
    const baseline = await residentBytes(pid);

    let running = true;
    let longestWait = 0;
    let peak = baseline;
    const probes = (async () => {
      let count = 0;
      while (running) {
        const started = performance.now();
        const health = await fetch(`${server!.url}/api/v1/health`);
        await health.arrayBuffer();
        longestWait = Math.max(longestWait, performance.now() - started);
        peak = Math.max(peak, await residentBytes(pid));
        count++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return count;
    })();

    const queued = await call('POST', tools, token, { operation: 'analyze' });
    expect(queued.status).toBe(202);
    let job: Answer = queued.body;
    for (let tries = 0; tries < 600 && (job.status === 'queued' || job.status === 'running'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      job = (await call('GET', `${tools}/${queued.body.id}`, token)).body;
    }
    running = false;
    const probeCount = await probes;

    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.result.analysedSeconds).toBe(MAX_ANALYSED_SECONDS);
    expect(job.result.durationSeconds).toBeCloseTo(SECONDS, 0);
    expect(job.result.tempoBpm).toBeGreaterThan(BPM - 1);
    expect(job.result.tempoBpm).toBeLessThan(BPM + 1);
    expect(probeCount).toBeGreaterThan(10);
    const growth = peak - baseline;
    console.info(
      `analyze of ${SECONDS} s: ${probeCount} probes, longest wait ${longestWait.toFixed(0)} ms, ` +
        `RSS growth ${(growth / 2 ** 20).toFixed(1)} MiB`,
    );
    expect(longestWait).toBeLessThan(MAX_PROBE_WAIT_MS);
    expect(growth).toBeLessThan(MAX_RSS_GROWTH_BYTES);
  },
  180_000,
);
