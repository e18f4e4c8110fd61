import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { TEST_SECRETS } from '../../../../test/helpers/context.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../../test/helpers/security-matrix.ts';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { buildApp } from '../../../app.ts';
import { domainEvents, files, jobs, musicToolRuns, versionStems } from '../../../db/schema/index.ts';
import { measureLoudness, runFfmpeg } from '../../../media/ffmpeg.ts';
import { clickTrack, toneBetweenSilences, triad } from '../../../media/music-test-audio.ts';
import { encodeWav, sine } from '../../../media/test-audio.ts';
import { MUSIC_TOOL_JOB } from './music-tools.service.ts';
import { LIMITS, musicToolsHelpers } from './test-support.ts';
import { TOOL_FAILURE_MESSAGES } from './tool-failures.ts';

// Audio work runs at a low priority, so on a machine busy with the rest of the suite a run takes
// many times its seconds alone (about 2 s for a normalisation here).
vi.setConfig({ testTimeout: 120_000 });

const ctx = useStorageTestContext('local');
const { call, versionWith, runTool, fileOnDisk, pcmOf } = musicToolsHelpers(ctx);

const RATE = 44_100;
const stereo = (mono: Float32Array) => encodeWav([mono, mono], RATE, 'pcm16');
/** A stereo 1 kHz sine whose peak is `dbfs` in both channels: EBU R128 reads it at `dbfs` LUFS. */
const referenceSine = (dbfs: number, seconds = 8) =>
  encodeWav(
    sine({ sampleRate: 48_000, seconds, frequency: 1000, amplitude: 10 ** (dbfs / 20), channels: 2 }),
    48_000,
    'float32',
  );

describe('music tools: analyze', () => {
  it.each([90, 128])('finds the tempo of clicks at %i BPM within 1 BPM', async (bpm) => {
    const team = await ctx.newTeam();
    const { tools } = await versionWith(team, stereo(clickTrack({ sampleRate: RATE, seconds: 10, bpm })));
    const job = await runTool(team, tools, { operation: 'analyze' });
    expect(job, JSON.stringify(job.error)).toMatchObject({ status: 'succeeded', operation: 'analyze' });
    expect(Math.abs(job.result.tempoBpm - bpm)).toBeLessThanOrEqual(1);
  });

  it.each([
    ['C', false, 'C major'],
    ['A', true, 'A minor'],
    ['F#', false, 'F# major'],
  ] as const)('finds the key of a %s triad (minor: %s)', async (root, minor, name) => {
    const team = await ctx.newTeam();
    const { tools, base } = await versionWith(
      team,
      stereo(triad({ sampleRate: RATE, seconds: 6, root, minor })),
    );
    const job = await runTool(team, tools, { operation: 'analyze' });
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.result.key).toMatchObject({ tonic: root, mode: minor ? 'minor' : 'major', name });
    // Stored on the version and shown in its detail.
    const detail = await call('GET', `${base}/detail`, team.owner.token);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().analysis).toMatchObject({ key: { name }, analysedAt: expect.any(String) });
  });

  it('measures EBU R128 loudness and true peak of a reference sine, stores them on the version', async () => {
    const team = await ctx.newTeam();
    const { tools, base, versionId } = await versionWith(team, referenceSine(-23));
    const before = await call('GET', `${base}/detail`, team.owner.token);
    expect(before.json().analysis).toBeNull();
    const job = await runTool(team, tools, { operation: 'analyze' });
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(Math.abs(job.result.loudness.integratedLufs - -23)).toBeLessThanOrEqual(0.5);
    expect(job.result.loudness.loudnessRangeLu).toBeLessThan(1);
    expect(Math.abs(job.result.loudness.truePeakDbtp - -23)).toBeLessThanOrEqual(0.5);
    expect(job.result.durationSeconds).toBeCloseTo(8, 1);
    expect(job.startedAt).not.toBeNull();
    expect(job.finishedAt).not.toBeNull();
    const detail = (await call('GET', `${base}/detail`, team.owner.token)).json();
    expect(detail.analysis.loudness).toEqual(job.result.loudness);
    const events = await ctx.database.db
      .select({ type: domainEvents.type, subjectId: domainEvents.subjectId })
      .from(domainEvents)
      .where(eq(domainEvents.teamId, team.id));
    expect(events).toEqual(
      expect.arrayContaining([
        { type: 'version.music_tool_requested', subjectId: String(versionId) },
        { type: 'music_tool.job.succeeded', subjectId: job.id },
      ]),
    );
  });
});

describe('music tools: files', () => {
  it('normalizes to -14 LUFS with true peak at most -1 dBTP, as a new version file', async () => {
    const team = await ctx.newTeam();
    const { tools, base } = await versionWith(team, referenceSine(-23));
    const job = await runTool(team, tools, { operation: 'normalize' });
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.result).toMatchObject({
      contentType: 'audio/flac',
      before: { integratedLufs: expect.any(Number) },
    });
    const detail = (await call('GET', `${base}/detail`, team.owner.token)).json();
    expect(detail.files.map((f: { fileId: number }) => f.fileId)).toEqual([job.result.fileId]);
    const file = await fileOnDisk(job.result.fileId);
    try {
      const measured = await measureLoudness(file.path, LIMITS);
      expect(Math.abs(measured.integratedLufs! - -14)).toBeLessThanOrEqual(0.5);
      expect(measured.truePeakDbtp!).toBeLessThanOrEqual(-1);
    } finally {
      await file.cleanUp();
    }
  });

  it.each([
    ['mp3', 'mp3', 'audio/mpeg'],
    ['flac', 'flac', 'audio/flac'],
    ['wav', 'pcm_s16le', 'audio/wav'],
    ['aac', 'aac', 'audio/mp4'],
  ])(
    'converts to %s: a preview file FFmpeg decodes as %s with the same duration',
    async (format, codec, type) => {
      const team = await ctx.newTeam();
      const { tools } = await versionWith(team, stereo(triad({ sampleRate: RATE, seconds: 6, root: 'D' })));
      const job = await runTool(team, tools, { operation: 'convert', format });
      expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
      expect(job.result).toMatchObject({ contentType: type, format });
      const file = await fileOnDisk(job.result.fileId);
      try {
        const probe = await runFfmpeg(['-i', file.path, '-f', 'null', '-'], LIMITS);
        expect(probe.stderr).toMatch(new RegExp(`Audio: ${codec}\\b`));
        const pcm = await pcmOf(job.result.fileId, { sampleRate: RATE, channels: 1 });
        // Lossy encoders add up to a frame or two of padding.
        expect(Math.abs(pcm.length / RATE - 6)).toBeLessThan(0.06);
      } finally {
        await file.cleanUp();
      }
    },
  );

  it('trims leading and trailing silence within 50 ms and says how much went', async () => {
    const team = await ctx.newTeam();
    const tone = toneBetweenSilences({ sampleRate: RATE, lead: 1.5, tone: 5, tail: 2.25 });
    const { tools } = await versionWith(team, stereo(tone));
    const job = await runTool(team, tools, { operation: 'trim' });
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(Math.abs(job.result.leadingSecondsRemoved - 1.5)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(job.result.trailingSecondsRemoved - 2.25)).toBeLessThanOrEqual(0.05);
    const pcm = await pcmOf(job.result.fileId, { sampleRate: RATE, channels: 1 });
    expect(Math.abs(pcm.length / RATE - 5)).toBeLessThanOrEqual(0.05);
  });

  it.each(['mid-side', 'left-right'] as const)(
    'splits %s into two stems that sum back to the original',
    async (mode) => {
      const team = await ctx.newTeam();
      const left = triad({ sampleRate: RATE, seconds: 3, root: 'C' });
      const right = sine({ sampleRate: RATE, seconds: 3, frequency: 330, amplitude: 0.4 })[0]!;
      const { tools, base } = await versionWith(team, encodeWav([left, right], RATE, 'pcm16'));
      const job = await runTool(team, tools, {
        operation: 'split',
        ...(mode === 'mid-side' ? {} : { mode }),
      });
      expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
      expect(job.parameters).toEqual({ mode });
      const names = mode === 'mid-side' ? ['Mid', 'Side'] : ['Left', 'Right'];
      expect(job.result.stems.map((s: { name: string }) => s.name)).toEqual(names);
      const listed = (await call('GET', `${base}/stems`, team.owner.token)).json();
      expect(listed.items.map((s: { name: string }) => s.name)).toEqual(names);
      const [a, b] = await Promise.all(
        job.result.stems.map((s: { fileId: number }) => pcmOf(s.fileId, { sampleRate: RATE, channels: 1 })),
      );
      let worst = 0;
      for (let i = 0; i < left.length; i++) {
        const [l, r] = mode === 'mid-side' ? [a[i] + b[i], a[i] - b[i]] : [a[i], b[i]];
        worst = Math.max(worst, Math.abs(l - left[i]!), Math.abs(r - right[i]!));
      }
      expect(worst).toBeLessThan(1e-3);
    },
  );
});

describe('music tools: refusals and failures', () => {
  it('refuses unknown operations and missing or wrong options with 400, queueing nothing', async () => {
    const team = await ctx.newTeam();
    const { tools, versionId } = await versionWith(
      team,
      stereo(clickTrack({ sampleRate: RATE, seconds: 1, bpm: 120 })),
    );
    const bodies: [object, string][] = [
      [{ operation: 'reverse' }, '/body/operation'],
      [{}, '/body/operation'],
      [{ operation: 'convert' }, '/body/format'],
      [{ operation: 'convert', format: 'ogg' }, '/body/format'],
      [{ operation: 'analyze', format: 'mp3' }, '/body/format'],
      [{ operation: 'split', mode: 'up-down' }, '/body/mode'],
      [{ operation: 'trim', mode: 'mid-side' }, '/body/mode'],
      [{ operation: 'analyze', extra: 1 }, '/body/extra'],
    ];
    for (const [body, path] of bodies) {
      const res = await call('POST', tools, team.owner.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(JSON.stringify(res.json().details), JSON.stringify(body)).toContain(path);
    }
    const separate = await call('POST', tools, team.owner.token, { operation: 'split', mode: 'separate' });
    expect(separate.statusCode).toBe(503);
    expect(separate.json().code).toBe('separation_unavailable');
    const runs = await ctx.database.db
      .select()
      .from(musicToolRuns)
      .where(eq(musicToolRuns.versionId, versionId));
    expect(runs).toEqual([]);
  });

  it('answers 409 for a version without audio and 404 for an unknown job', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const tools = `/api/v1/tracks/${track.id}/versions/${track.versionId}/music-tools`;
    const res = await call('POST', tools, team.owner.token, { operation: 'analyze' });
    expect(res.statusCode).toBe(409);
    const missing = await call('GET', `${tools}/018f0000-0000-7000-8000-000000000000`, team.owner.token);
    expect(missing.statusCode).toBe(404);
  });

  it('ends a job on a corrupt file failed with audio_unreadable, registering nothing', async () => {
    const team = await ctx.newTeam();
    const corrupt = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt '), Buffer.alloc(4000, 0x5a)]);
    const { tools, base, versionId } = await versionWith(team, corrupt, 'broken.wav');
    for (const body of [{ operation: 'normalize' }, { operation: 'split' }, { operation: 'analyze' }]) {
      const job = await runTool(team, tools, body);
      expect(job).toMatchObject({ status: 'failed', result: null, error: { code: 'audio_unreadable' } });
      // The fixed message of the code: nothing of FFmpeg's log, nor a path of the server.
      expect(job.error.message).toBe(TOOL_FAILURE_MESSAGES.audio_unreadable);
      expect(JSON.stringify(job.error)).not.toMatch(/\/|input|Invalid data|FFmpeg|exit code/);
    }
    const detail = (await call('GET', `${base}/detail`, team.owner.token)).json();
    expect(detail.files).toEqual([]);
    expect(detail.analysis).toBeNull();
    expect(
      await ctx.database.db.select().from(versionStems).where(eq(versionStems.versionId, versionId)),
    ).toEqual([]);
  });

  it.each([
    [{ operation: 'convert', format: 'wav' }, 1000],
    // Room for the first stem but not the second: neither stays.
    [{ operation: 'split', mode: 'left-right' }, 400_000],
  ])(
    'ends %j failed with quota_exceeded when storage runs out, leaving nothing behind',
    async (body, room) => {
      const team = await ctx.newTeam();
      const { tools, base, versionId } = await versionWith(team, referenceSine(-20, 3));
      const [used] = await ctx.database.db
        .select({ size: files.size })
        .from(files)
        .where(eq(files.teamId, team.id));
      await ctx.setQuota(team, used!.size + room);
      const job = await runTool(team, tools, body);
      expect(job).toMatchObject({ status: 'failed', result: null, error: { code: 'quota_exceeded' } });
      const detail = (await call('GET', `${base}/detail`, team.owner.token)).json();
      expect(detail.files).toEqual([]);
      expect(
        await ctx.database.db.select().from(versionStems).where(eq(versionStems.versionId, versionId)),
      ).toEqual([]);
      const rows = await ctx.database.db
        .select({ id: files.id })
        .from(files)
        .where(eq(files.teamId, team.id));
      expect(rows).toHaveLength(1);
      expect(await ctx.listKeys(`pending/${team.id}/`)).toEqual([]);
      expect(await ctx.listKeys(`teams/${team.id}/`)).toHaveLength(1);
    },
  );

  it('ends trimming or normalizing a silent file failed with audio_silent', async () => {
    const team = await ctx.newTeam();
    const { tools, base } = await versionWith(team, stereo(new Float32Array(RATE * 2)));
    for (const operation of ['trim', 'normalize']) {
      const job = await runTool(team, tools, { operation });
      expect(job, operation).toMatchObject({ status: 'failed', error: { code: 'audio_silent' } });
    }
    expect((await call('GET', `${base}/detail`, team.owner.token)).json().files).toEqual([]);
  });

  it('answers a repeated POST with the same Idempotency-Key once, queueing one job', async () => {
    const team = await ctx.newTeam();
    const { tools, versionId } = await versionWith(team, referenceSine(-20, 2));
    const send = () =>
      ctx.request({
        method: 'POST',
        url: tools,
        token: team.owner.token,
        headers: { 'idempotency-key': `music-${versionId}` },
        payload: { operation: 'analyze' },
      });
    const first = await send();
    const second = await send();
    expect(first.statusCode).toBe(202);
    expect(second.statusCode).toBe(202);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().id).toBe(first.json().id);
    const runs = await ctx.database.db
      .select()
      .from(musicToolRuns)
      .where(eq(musicToolRuns.versionId, versionId));
    expect(runs).toHaveLength(1);
  });
});

describe('music tools: durability', () => {
  it('runs a job queued before a restart in a new app instance on the same database', async () => {
    const team = await ctx.newTeam();
    const { tools } = await versionWith(team, referenceSine(-23, 4));
    const queued = await call('POST', tools, team.owner.token, { operation: 'analyze' });
    expect(queued.statusCode).toBe(202);
    const waiting = await ctx.database.db.select().from(jobs).where(eq(jobs.type, MUSIC_TOOL_JOB));
    expect(waiting.map((j) => j.payload)).toContainEqual({ runId: queued.json().id });

    const restarted = await buildApp({
      config: ctx.config,
      database: ctx.database,
      clock: ctx.clock,
      secrets: TEST_SECRETS,
      logger: false,
    });
    try {
      await restarted.ready();
      expect(await restarted.services.jobs.runDue()).toBeGreaterThan(0);
    } finally {
      await restarted.close();
    }
    const done = await call('GET', `${tools}/${queued.json().id}`, team.owner.token);
    expect(done.json()).toMatchObject({
      status: 'succeeded',
      result: { loudness: { integratedLufs: expect.any(Number) } },
    });
  });
});

const withAudio = async (team: Parameters<MatrixCase['build']>[0]) =>
  versionWith(
    team,
    encodeWav(sine({ sampleRate: 8000, seconds: 0.5, amplitude: 0.5, channels: 2 }), 8000, 'pcm16'),
  );

const cases: MatrixCase[] = [
  {
    method: 'POST',
    path: '/api/v1/tracks/{id}/versions/{versionId}/music-tools',
    shareLevel: 'owner',
    builtByOwner: true,
    build: async (team) => ({ url: (await withAudio(team)).tools, payload: { operation: 'analyze' } }),
  },
  {
    method: 'GET',
    path: '/api/v1/tracks/{id}/versions/{versionId}/music-tools/{jobId}',
    shareLevel: 'read',
    builtByOwner: true,
    build: async (team) => {
      const { tools } = await withAudio(team);
      const queued = await call('POST', tools, team.owner.token, { operation: 'analyze' });
      return { url: `${tools}/${queued.json().id}` };
    },
  },
];

describeSecurityMatrix(ctx, cases);
