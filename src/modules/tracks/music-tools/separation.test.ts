import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { versionStems } from '../../../db/schema/index.ts';
import { encodeWav, sine } from '../../../media/test-audio.ts';
import { musicToolsHelpers } from './test-support.ts';
import { TOOL_FAILURE_MESSAGES } from './tool-failures.ts';

// Audio work runs at a low priority, so on a machine busy with the rest of the suite a run takes
// many times its seconds alone (about 2 s for a normalisation here).
vi.setConfig({ testTimeout: 120_000 });

const RATE = 22_050;
const stemWav = (frequency: number) =>
  encodeWav(sine({ sampleRate: RATE, seconds: 1, frequency, amplitude: 0.3 }), RATE, 'pcm16');

/** A stand-in separation service: records each request, answers four stems (or what `answer` says). */
const seen: { contentType: string | undefined; authorization: string | undefined; body: Buffer }[] = [];
const stems = () => ({
  stems: [
    { name: 'vocals', contentType: 'audio/wav', data: stemWav(440).toString('base64') },
    { name: 'drums', data: stemWav(110).toString('base64') },
    { name: 'bass', contentType: 'audio/wav', data: stemWav(55).toString('base64') },
    { name: 'other', contentType: 'audio/wav', data: stemWav(880).toString('base64') },
  ],
});
let answer: { status: number; body: string } = { status: 200, body: '' };
const server: Server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    seen.push({
      contentType: req.headers['content-type'],
      authorization: req.headers.authorization,
      body: Buffer.concat(chunks),
    });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
});

// Filled in before the app is built (hooks run in order), so the app sees the stand-in's address.
const env: Record<string, string> = { SEPARATION_API_KEY: 'sep-test-key' };
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env.SEPARATION_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/separate`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const ctx = useStorageTestContext('local', { env });
const { call, versionWith, runTool, pcmOf } = musicToolsHelpers(ctx);
const mix = () =>
  encodeWav(
    sine({ sampleRate: RATE, seconds: 1.5, frequency: 220, amplitude: 0.5, channels: 2 }),
    RATE,
    'pcm16',
  );

describe('music tools: separation service', () => {
  it('sends the audio as WAV with the key and registers vocals, drums, bass and other as stems', async () => {
    const team = await ctx.newTeam();
    const { tools, base } = await versionWith(team, mix());
    seen.length = 0;
    answer = { status: 200, body: JSON.stringify(stems()) };
    const job = await runTool(team, tools, { operation: 'split', mode: 'separate' });
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.contentType).toBe('audio/wav');
    expect(seen[0]!.authorization).toBe('Bearer sep-test-key');
    expect(seen[0]!.body.subarray(0, 4).toString()).toBe('RIFF');
    expect(seen[0]!.body.subarray(8, 12).toString()).toBe('WAVE');
    const names = ['Vocals', 'Drums', 'Bass', 'Other'];
    expect(job.result).toMatchObject({ mode: 'separate' });
    expect(job.result.stems.map((s: { name: string }) => s.name)).toEqual(names);
    const listed = (await call('GET', `${base}/stems`, team.owner.token)).json();
    expect(listed.items.map((s: { name: string; instrument: string }) => [s.name, s.instrument])).toEqual([
      ['Vocals', 'vocals'],
      ['Drums', 'drums'],
      ['Bass', 'bass'],
      ['Other', 'other'],
    ]);
    // The bytes stored are the service's.
    const vocals = await pcmOf(job.result.stems[0].fileId, { sampleRate: RATE, channels: 1 });
    expect(vocals.length).toBe(RATE);
  });

  it.each([
    { status: 500, body: '{"error":"boom"}' },
    { status: 200, body: 'not json' },
    { status: 200, body: JSON.stringify({ stems: stems().stems.slice(0, 3) }) },
  ])('ends the job failed with separation_failed on a bad answer (%j), registering nothing', async (bad) => {
    const team = await ctx.newTeam();
    const { tools, versionId } = await versionWith(team, mix());
    answer = bad;
    const job = await runTool(team, tools, { operation: 'split', mode: 'separate' });
    expect(job).toMatchObject({ status: 'failed', result: null, error: { code: 'separation_failed' } });
    expect(job.error.message).toBe(TOOL_FAILURE_MESSAGES.separation_failed);
    expect(
      await ctx.database.db.select().from(versionStems).where(eq(versionStems.versionId, versionId)),
    ).toEqual([]);
    expect(await ctx.listKeys(`pending/${team.id}/`)).toEqual([]);
  });
});
