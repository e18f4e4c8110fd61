import { inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { TestTeam, TestTrack } from '../../../../test/helpers/context.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../../test/helpers/security-matrix.ts';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { musicToolRuns } from '../../../db/schema/index.ts';
import { encodeWav, sine } from '../../../media/test-audio.ts';
import { musicToolsHelpers } from '../music-tools/test-support.ts';

// Analyses run FFmpeg in the job queue at a low priority: slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const ctx = useStorageTestContext('local');
const { call, versionWith } = musicToolsHelpers(ctx);

const RATE = 44_100;

/** A stereo 1 kHz sine whose peak is `dbfs`: two of them differ in loudness by the difference of their levels. */
const tone = (dbfs: number, seconds = 4, rate = RATE) =>
  encodeWav(
    sine({ sampleRate: rate, seconds, frequency: 1000, amplitude: 10 ** (dbfs / 20), channels: 2 }),
    rate,
    'pcm16',
  );

/** Song-like audio: a 440 Hz tone whose level changes every half second at random (seeded), after `lead` s of silence. */
function phrase(seconds: number, lead = 0): Buffer {
  const rate = 22_050;
  const samples = new Float32Array(Math.round((lead + seconds) * rate));
  let state = 11;
  let level = 0;
  for (let i = 0; i < Math.round(seconds * rate); i++) {
    if (i % (rate / 2) === 0) {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      level = 0.05 + 0.6 * (state / 2_147_483_648);
    }
    samples[Math.round(lead * rate) + i] = level * Math.sin((2 * Math.PI * 440 * i) / rate);
  }
  return encodeWav([samples, samples], rate, 'pcm16');
}

const compareUrl = (track: { id: number }, a: number, b: number) =>
  `/api/v1/tracks/${track.id}/compare?a=${a}&b=${b}`;

/** A track of the team with two versions whose audio is `first` and `second`. */
async function trackWith(team: TestTeam, first: Buffer, second: Buffer) {
  const one = await versionWith(team, first);
  const two = await versionWith(team, second, 'take-2.wav', one.track);
  return { track: one.track as TestTrack, a: one.versionId, b: two.versionId };
}

const runsOf = (versionIds: number[]) =>
  ctx.database.db.select().from(musicToolRuns).where(inArray(musicToolRuns.versionId, versionIds));

describe('fair A/B: loudness', () => {
  it('answers 202 with analyze jobs until both are analysed, then gains that make them equally loud', async () => {
    const team = await ctx.newTeam();
    const { track, a, b } = await trackWith(team, tone(-12), tone(-18));
    const url = compareUrl(track, a, b);

    const first = await call('GET', url, team.owner.token);
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json().status).toBe('analysing');
    const jobs = first.json().jobs as { id: string; versionId: number; operation: string; status: string }[];
    expect(jobs.map((j) => [j.versionId, j.operation, j.status])).toEqual([
      [a, 'analyze', 'queued'],
      [b, 'analyze', 'queued'],
    ]);
    // Asking again waits for the same jobs: nothing is queued twice.
    const again = await call('GET', url, team.owner.token);
    expect(again.statusCode).toBe(202);
    expect(again.json().jobs.map((j: { id: string }) => j.id)).toEqual(jobs.map((j) => j.id));
    expect(await runsOf([a, b])).toHaveLength(2);

    await ctx.runJobs();
    const done = await call('GET', url, team.owner.token);
    expect(done.statusCode, done.body).toBe(200);
    const body = done.json();
    expect(body).toMatchObject({ trackId: track.id, a: { versionId: a }, b: { versionId: b } });
    // The levels differ by 6 dB, and so do the measured loudnesses.
    expect(Math.abs(body.a.integratedLufs - body.b.integratedLufs - 6)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(body.a.truePeakDbtp - -12)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(body.b.truePeakDbtp - -18)).toBeLessThanOrEqual(0.5);
    expect(body.a.durationSeconds).toBeCloseTo(4, 1);
    expect(body.b.durationSeconds).toBeCloseTo(4, 1);
    // The louder one is lowered to the quieter, which stays as it is.
    expect(Math.abs(body.a.gainDb - -6)).toBeLessThanOrEqual(0.1);
    expect(body.b.gainDb).toBe(0);
    expect(body.referenceVersionId).toBe(b);
    expect(body.referenceLufs).toBe(body.b.integratedLufs);
    const played = (side: { integratedLufs: number; gainDb: number }) => side.integratedLufs + side.gainDb;
    expect(Math.abs(played(body.a) - played(body.b))).toBeLessThanOrEqual(0.1);

    // Either order: the same gains on the same versions.
    const swapped = (await call('GET', compareUrl(track, b, a), team.owner.token)).json();
    expect(swapped.a).toEqual(body.b);
    expect(swapped.b).toEqual(body.a);
    expect(swapped.referenceVersionId).toBe(b);

    // A version against itself: nothing to change.
    const same = await call('GET', compareUrl(track, a, a), team.owner.token);
    expect(same.statusCode).toBe(200);
    expect([same.json().a.gainDb, same.json().b.gainDb]).toEqual([0, 0]);
    expect(same.json().referenceVersionId).toBe(a);
  });

  it('finds the offset of the same audio delayed by 2 s', async () => {
    const team = await ctx.newTeam();
    const { track, a, b } = await trackWith(team, phrase(12), phrase(12, 2));
    expect((await call('GET', compareUrl(track, a, b), team.owner.token)).statusCode).toBe(202);
    await ctx.runJobs();
    const res = await call('GET', compareUrl(track, a, b), team.owner.token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.alignment).toBe('aligned');
    expect(Math.abs(body.offsetSeconds - 2)).toBeLessThanOrEqual(body.resolutionSeconds);
    expect(body.confidence).toBeGreaterThanOrEqual(0.6);
    // Leading silence does not count in the integrated loudness: the two play alike.
    expect(Math.abs(body.a.gainDb + body.b.gainDb)).toBeLessThanOrEqual(0.2);
    const back = (await call('GET', compareUrl(track, b, a), team.owner.token)).json();
    expect(Math.abs(back.offsetSeconds + 2)).toBeLessThanOrEqual(back.resolutionSeconds);
  });
});

describe('fair A/B: who may ask, and refusals', () => {
  it('queues analyses for the owning team only; others get 409 analysis_missing or wait for queued jobs', async () => {
    const team = await ctx.newTeam();
    const guest = await ctx.newTeam(team.owner);
    const guestMember = await ctx.addMember(guest, 'member');
    const { track, a, b } = await trackWith(
      { ...team, shareWith: [guest.id] },
      tone(-14, 1.5, 16_000),
      tone(-20, 1.5, 16_000),
    );
    const url = compareUrl(track, a, b);
    const readOnlyKey = await ctx.newApiKey(team, []);
    const guestKey = await ctx.newApiKey(guest, ['tracks:write']);

    const outsider = await ctx.newUser();
    expect((await call('GET', url, outsider.token)).statusCode).toBe(404);

    for (const token of [guestMember.token, readOnlyKey, guestKey]) {
      const res = await call('GET', url, token);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().code).toBe('analysis_missing');
      expect(res.json().details.map((d: { path: string }) => d.path)).toEqual(['/query/a', '/query/b']);
      expect(res.json().details[0].message).toContain(String(a));
    }
    expect(await runsOf([a, b])).toEqual([]);

    const writer = await ctx.newApiKey(team, ['tracks:write']);
    const queued = await call('GET', url, writer);
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json().jobs).toHaveLength(2);
    // Jobs someone else queued are shown to every reader.
    const waiting = await call('GET', url, guestMember.token);
    expect(waiting.statusCode, waiting.body).toBe(202);
    expect(waiting.json().jobs.map((j: { id: string }) => j.id)).toEqual(
      queued.json().jobs.map((j: { id: string }) => j.id),
    );

    await ctx.runJobs();
    for (const token of [guestMember.token, readOnlyKey, guestKey]) {
      const res = await call('GET', url, token);
      expect(res.statusCode, res.body).toBe(200);
      expect(Math.abs(res.json().a.gainDb - -6)).toBeLessThanOrEqual(0.1);
    }
  });

  it('answers 404 for versions of another track, 409 without audio and 400 without both versions', async () => {
    const team = await ctx.newTeam();
    const { track, a } = await trackWith(team, tone(-14, 1, 16_000), tone(-14, 1, 16_000));
    const other = await versionWith(team, tone(-14, 1, 16_000));
    const foreign = await call('GET', compareUrl(track, a, other.versionId), team.owner.token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('not_found');
    expect((await call('GET', compareUrl(track, 2_000_000_000, a), team.owner.token)).statusCode).toBe(404);

    // The first version of a track made without uploading has no audio.
    const silent = await call('GET', compareUrl(track, a, track.versionId), team.owner.token);
    expect(silent.statusCode).toBe(409);
    expect(silent.json()).toMatchObject({ code: 'conflict' });
    expect(silent.json().error).toContain(String(track.versionId));

    for (const query of [`a=${a}`, `b=${a}`, `a=${a}&b=x`, `a=0&b=${a}`]) {
      const res = await call('GET', `/api/v1/tracks/${track.id}/compare?${query}`, team.owner.token);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect(await runsOf([a, track.versionId])).toEqual([]);
  });

  it('answers 409 analysis_failed when the analysis of unreadable audio failed, until analyze runs again', async () => {
    const team = await ctx.newTeam();
    const corrupt = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt '), Buffer.alloc(4000, 0x5a)]);
    const { track, versionId, tools } = await versionWith(team, corrupt, 'broken.wav');
    const url = compareUrl(track, versionId, versionId);
    expect((await call('GET', url, team.owner.token)).statusCode).toBe(202);
    await ctx.runJobs();
    const failed = await call('GET', url, team.owner.token);
    expect(failed.statusCode, failed.body).toBe(409);
    expect(failed.json().code).toBe('analysis_failed');
    expect(failed.json().details[0].message).toContain('audio_unreadable');
    // Asking again does not queue the same failure over and over.
    expect(await runsOf([versionId])).toHaveLength(1);

    const rerun = await call('POST', tools, team.owner.token, { operation: 'analyze' });
    expect(rerun.statusCode).toBe(202);
    const waiting = await call('GET', url, team.owner.token);
    expect(waiting.statusCode).toBe(202);
    expect(waiting.json().jobs.map((j: { id: string }) => j.id)).toEqual([rerun.json().id]);
  });
});

const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: '/api/v1/tracks/{id}/compare',
    shareLevel: 'read',
    builtByOwner: true,
    build: async (team) => {
      const { track, versionId } = await versionWith(team, tone(-16, 1, 8000));
      const url = compareUrl(track, versionId, versionId);
      const queued = await call('GET', url, team.owner.token);
      expect(queued.statusCode, queued.body).toBe(202);
      await ctx.runJobs();
      return { url };
    },
  },
];

describeSecurityMatrix(ctx, cases);
