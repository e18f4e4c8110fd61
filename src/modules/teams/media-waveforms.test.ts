import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configProblems } from '../../../test/helpers/config-problems.ts';
import { uploadMedia } from '../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';
import { ffmpegPath, useFfmpeg } from '../../media/ffmpeg.ts';
import { encodedTone } from '../../media/ffmpeg-fixtures.ts';

// FFMPEG_PATH names a wrapper that notes each run, then runs the bundled FFmpeg: the waveform job must
// reach it (the process drawing waveforms is a child of the service's process).
const wrapperDir = mkdtempSync(join(tmpdir(), 'tmw-ffmpeg-path-'));
const runs = join(wrapperDir, 'runs');
const wrapper = join(wrapperDir, 'ffmpeg');
writeFileSync(runs, '');
writeFileSync(wrapper, `#!/bin/sh\necho run >> '${runs}'\nexec '${ffmpegPath()}' "$@"\n`);
chmodSync(wrapper, 0o755);
afterAll(() => {
  // The app chose the wrapper for this whole process: later files in this worker get the bundled one back.
  useFfmpeg(undefined);
  rmSync(wrapperDir, { recursive: true, force: true });
});

const ctx = useStorageTestContext('local', { env: { FFMPEG_PATH: wrapper } });

const mediaUrl = (teamId: number, suffix = '') => `/api/v1/teams/${teamId}/media${suffix}`;

describe('waveforms of AAC, M4A and Opus media', () => {
  it('are drawn through the FFmpeg FFMPEG_PATH names, over the whole duration', async () => {
    const team = await ctx.newTeam();
    const dir = await mkdtemp(join(tmpdir(), 'tmw-encoded-'));
    const uploads = {
      m4a: await uploadMedia(ctx, team, await encodedTone(dir, 'm4a', 2), 'take.m4a', 'audio/mp4'),
      aac: await uploadMedia(ctx, team, await encodedTone(dir, 'aac', 2), 'take.aac', 'audio/aac'),
      opus: await uploadMedia(ctx, team, await encodedTone(dir, 'opus', 2), 'take.opus', 'audio/ogg'),
    };
    const before = readFileSync(runs, 'utf8').length;
    await ctx.runJobs();
    for (const name of ['m4a', 'aac', 'opus'] as const) {
      const res = await ctx.request({
        method: 'GET',
        url: mediaUrl(team.id, `/${uploads[name].id}`),
        token: team.owner.token,
      });
      const peaks = res.json().peaks;
      expect(peaks, name).toMatchObject({ status: 'ready', bucketCount: 1000 });
      expect(peaks.durationSeconds, name).toBeGreaterThan(1.99);
      expect(peaks.durationSeconds, name).toBeLessThan(2.06);
      expect(Math.max(...peaks.max), name).toBeCloseTo(0.5, 1);
      // Every bucket holds the tone, but those of the encoder's priming (ADTS keeps 23 ms of it) and padding.
      expect(Math.min(...peaks.max.slice(25, -25)), name).toBeGreaterThan(0.4);
    }
    expect(readFileSync(runs, 'utf8').slice(before).trim().split('\n')).toHaveLength(3);
  });
});

describe('FFMPEG_PATH', () => {
  it('is checked at start: a missing or non-executable file is a configuration problem', () => {
    const plain = join(wrapperDir, 'not-executable');
    writeFileSync(plain, '');
    for (const path of [join(wrapperDir, 'missing'), plain, wrapperDir])
      expect(configProblems({ FFMPEG_PATH: path })).toEqual([
        'FFMPEG_PATH: must name an executable file (the FFmpeg binary to run)',
      ]);
    expect(configProblems({ FFMPEG_PATH: wrapper })).toEqual([]);
  });
});
