import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestTeam, TestTrack } from '../../../../test/helpers/context.ts';
import { putBytes } from '../../../../test/helpers/file-flow.ts';
import type { StorageTestContext } from '../../../../test/helpers/storage.ts';
import { callWith, versionsBase } from '../../../../test/helpers/version-uploads.ts';
import { files } from '../../../db/schema/index.ts';
import { decodePcm, type FfmpegLimits } from '../../../media/ffmpeg.ts';

export const LIMITS: FfmpegLimits = { timeoutMs: 60_000, maxMemoryBytes: 1024 * 1024 * 1024 };

/** Helpers of the music-tools tests, over one storage test context. */
export function musicToolsHelpers(ctx: StorageTestContext) {
  const call = callWith(ctx);

  /**
   * A new version whose audio is `bytes` (created, uploaded, registered as a client does), on `onTrack` or
   * else on a new track of the team.
   */
  async function versionWith(team: TestTeam, bytes: Buffer, fileName = 'mix.wav', onTrack?: TestTrack) {
    const track = onTrack ?? (await ctx.newTrack(team));
    const created = await call('POST', `${versionsBase(track)}/create`, team.owner.token, {
      audio_file_name: fileName,
    });
    expect(created.statusCode, created.body).toBe(201);
    const version = created.json();
    const put = await putBytes(ctx, version.upload, bytes);
    expect(put.status, put.body.toString()).toBe(200);
    const base = `${versionsBase(track)}/${version.id}`;
    const registered = await call('PUT', `${base}/audio`, team.owner.token, {
      fileKey: version.upload.fileKey,
    });
    expect(registered.statusCode, registered.body).toBe(200);
    return { track, versionId: version.id as number, base, tools: `${base}/music-tools` };
  }

  /** Posts a tool request, runs the queue, answers the finished job. */
  async function runTool(team: TestTeam, tools: string, body: object) {
    const queued = await call('POST', tools, team.owner.token, body);
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json()).toMatchObject({ status: 'queued', result: null, error: null });
    await ctx.runJobs();
    const done = await call('GET', `${tools}/${queued.json().id}`, team.owner.token);
    expect(done.statusCode, done.body).toBe(200);
    return done.json();
  }

  /** The stored bytes of a registered file, written to a scratch file for FFmpeg; `cleanUp` removes it. */
  async function fileOnDisk(fileId: number) {
    const [row] = await ctx.database.db.select().from(files).where(eq(files.id, fileId));
    if (!row) throw new Error(`No file ${fileId}`);
    const blob = await ctx.store.get(row.key);
    if (!blob) throw new Error(`No bytes for file ${fileId}`);
    const chunks: Buffer[] = [];
    for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
    const dir = await mkdtemp(join(tmpdir(), 'music-tools-test-'));
    const path = join(dir, row.originalName.replace(/[^\w.-]+/g, '_'));
    await writeFile(path, Buffer.concat(chunks));
    return { row, path, cleanUp: () => rm(dir, { recursive: true, force: true }) };
  }

  /** A file's audio decoded to interleaved float PCM. */
  async function pcmOf(fileId: number, format: { sampleRate: number; channels: number }) {
    const file = await fileOnDisk(fileId);
    try {
      return await decodePcm(file.path, format, LIMITS);
    } finally {
      await file.cleanUp();
    }
  }

  return { call, versionWith, runTool, fileOnDisk, pcmOf };
}
