import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestTeam } from '../../../../test/helpers/context.ts';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { jobs, musicToolRuns } from '../../../db/schema/index.ts';
import { encodeWav, sine } from '../../../media/test-audio.ts';
import { MUSIC_TOOL_JOB } from './music-tools.service.ts';
import { musicToolsHelpers } from './test-support.ts';

const LIMIT = 3;
const ctx = useStorageTestContext('local', { env: { MUSIC_TOOLS_MAX_JOBS_PER_TEAM: String(LIMIT) } });
const { call, versionWith } = musicToolsHelpers(ctx);

const RATE = 8_000;
const audio = () =>
  encodeWav(
    sine({ sampleRate: RATE, seconds: 1, frequency: 440, amplitude: 0.5, channels: 2 }),
    RATE,
    'pcm16',
  );
/** Distinct requests: each is a job of its own. */
const DISTINCT = [
  { operation: 'analyze' },
  { operation: 'normalize' },
  { operation: 'trim' },
  { operation: 'convert', format: 'mp3' },
  { operation: 'convert', format: 'flac' },
  { operation: 'split', mode: 'left-right' },
];

const runsOf = (team: TestTeam) =>
  ctx.database.db.select().from(musicToolRuns).where(eq(musicToolRuns.teamId, team.id));

describe('music tools: limits per team', () => {
  it('answers the same pending request on a version with its job, queueing one', async () => {
    const team = await ctx.newTeam();
    const { tools } = await versionWith(team, audio());
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call('POST', tools, team.owner.token, { operation: 'analyze' })),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(202);
    expect(new Set(answers.map((answer) => answer.json().id)).size).toBe(1);
    // Other options are another request.
    const flac = await call('POST', tools, team.owner.token, { operation: 'convert', format: 'flac' });
    const mp3 = await call('POST', tools, team.owner.token, { operation: 'convert', format: 'mp3' });
    expect(new Set([answers[0]!.json().id, flac.json().id, mp3.json().id]).size).toBe(3);
    expect(await runsOf(team)).toHaveLength(3);
    expect(await ctx.database.db.select().from(jobs).where(eq(jobs.type, MUSIC_TOOL_JOB))).toHaveLength(3);

    // Once finished, the same request is a new job.
    await ctx.runJobs();
    const again = await call('POST', tools, team.owner.token, { operation: 'analyze' });
    expect(again.statusCode).toBe(202);
    expect(again.json().id).not.toBe(answers[0]!.json().id);
  });

  it(`refuses a team's request beyond ${LIMIT} unfinished jobs with 429 too_many_jobs, queueing nothing`, async () => {
    const team = await ctx.newTeam();
    const other = await ctx.newTeam();
    const { tools } = await versionWith(team, audio());
    const answers = await Promise.all(DISTINCT.map((body) => call('POST', tools, team.owner.token, body)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([202, 202, 202, 429, 429, 429]);
    for (const refused of answers.filter((answer) => answer.statusCode === 429)) {
      expect(refused.json()).toMatchObject({ code: 'too_many_jobs' });
      expect(refused.headers['retry-after']).toBe('30');
    }
    expect(await runsOf(team)).toHaveLength(LIMIT);
    // The pending request itself is still answered with its job; another team has its own limit.
    const accepted = answers.find((answer) => answer.statusCode === 202)!.json();
    const same = await call('POST', tools, team.owner.token, {
      operation: accepted.operation,
      ...accepted.parameters,
    });
    expect(same.statusCode, same.body).toBe(202);
    expect(same.json().id).toBe(accepted.id);
    const elsewhere = await versionWith(other, audio());
    expect(
      (await call('POST', elsewhere.tools, other.owner.token, { operation: 'analyze' })).statusCode,
    ).toBe(202);

    // Finished jobs make room again.
    await ctx.runJobs();
    const refusedBody = DISTINCT[answers.findIndex((answer) => answer.statusCode === 429)]!;
    expect((await call('POST', tools, team.owner.token, refusedBody)).statusCode).toBe(202);
  });
});
