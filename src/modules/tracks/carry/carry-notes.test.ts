import { describe, expect, it } from 'vitest';
import type { TestTeam, TestTrack, TestUser } from '../../../../test/helpers/context.ts';
import { ownerEvents } from '../../../../test/helpers/events.ts';
import { putBytes } from '../../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { callWith, versionsBase } from '../../../../test/helpers/version-uploads.ts';
import { encodeWav } from '../../../media/test-audio.ts';
import { CARRY_NOTES_JOB, CARRY_WAIT_MS, carryNotes } from './carry-notes.ts';

const ctx = useStorageTestContext('local');
const call = callWith(ctx);

const RATE = 8000;

/** A song-like loudness that never repeats: a level drawn for each half second (a seeded generator). */
function levels(seed: number) {
  const drawn: number[] = [];
  let state = seed;
  return (t: number) => {
    const index = Math.floor(t / 0.5);
    while (drawn.length <= index) {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      drawn.push(0.1 + 0.8 * (state / 2_147_483_648));
    }
    return drawn[index] as number;
  };
}

/** A mono WAV of `seconds` of a 220 Hz tone whose loudness follows `seed`, after `silence` seconds of silence. */
function song(seconds: number, seed: number, silence = 0): Buffer {
  const level = levels(seed);
  const samples = new Float32Array(Math.round((silence + seconds) * RATE));
  const start = Math.round(silence * RATE);
  for (let i = start; i < samples.length; i++) {
    const t = (i - start) / RATE;
    samples[i] = level(t) * Math.sin((2 * Math.PI * 220 * i) / RATE);
  }
  return encodeWav([samples], RATE, 'pcm16');
}

/** A new version of the track with `bytes` as its registered audio. */
async function versionWith(team: TestTeam, track: TestTrack, bytes: Buffer) {
  const base = versionsBase(track);
  const created = await call('POST', `${base}/create`, team.owner.token, { audioFileName: 'mix.wav' });
  expect(created.statusCode, created.body).toBe(201);
  const put = await putBytes(ctx, created.json().upload, bytes);
  expect(put.status).toBe(200);
  const registered = await call('PUT', `${base}/${created.json().id}/audio`, team.owner.token, {
    fileKey: created.json().upload.fileKey,
  });
  expect(registered.statusCode, registered.body).toBe(200);
  return registered.json().id as number;
}

/** Runs the queue until the carrying job waited out the waveforms. */
async function settle() {
  await ctx.runJobs();
  ctx.clock.advance(CARRY_WAIT_MS);
  await ctx.runJobs();
}

type Comment = {
  id: number;
  parentId: number | null;
  atSeconds: number | null;
  comment: string;
  authorId: string | null;
  resolvedAt: string | null;
  carriedFrom: { versionId: number; commentId: number; atSeconds: number | null; mapped: boolean } | null;
  todoId: number | null;
};

async function commentsOf(team: TestTeam, track: TestTrack, versionId: number): Promise<Comment[]> {
  const res = await call('GET', `${versionsBase(track)}/${versionId}/comments?limit=200`, team.owner.token);
  return res.json().items;
}

async function todosOf(team: TestTeam, track: TestTrack, versionId: number) {
  const res = await call('GET', `${versionsBase(track)}/${versionId}/todos?limit=200`, team.owner.token);
  return res.json().items as { id: number; todo: string; commentId: number | null; carriedFrom: unknown }[];
}

async function detailOf(team: TestTeam, track: TestTrack, versionId: number) {
  return (await call('GET', `${versionsBase(track)}/${versionId}/detail`, team.owner.token)).json();
}

async function post(url: string, by: TestUser, body: object, status = 201) {
  const res = await call('POST', url, by.token, body);
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}

const carriedEvents = async (team: TestTeam) =>
  ownerEvents(ctx.app.deps.database.db, { teamId: team.id }, 'version.notes_carried');

describe('notes follow the song', () => {
  it('carries open timed comments with replies and open to-dos to a successor with 3 s of silence before', async () => {
    const team = await ctx.newTeam();
    const member = await ctx.addMember(team);
    const track = await ctx.newTrack(team);
    const v1 = await versionWith(team, track, song(20, 7));
    await settle();
    const url = `${versionsBase(track)}/${v1}/comments`;
    const times = [1.5, 5.25, 9, 13.75, 18.5];
    const open = [];
    for (const [i, atSeconds] of times.entries())
      open.push(await post(url, i % 2 ? member : team.owner, { comment: `note ${i}`, atSeconds }));
    const replies = [
      await post(url, member, { comment: 'agreed', parentId: open[0].id }),
      await post(url, team.owner, { comment: 'fixed?', parentId: open[3].id, atSeconds: 14 }),
    ];
    const resolved = await post(url, member, { comment: 'old news', atSeconds: 7 });
    await post(`${url}/${resolved.id}/resolve`, team.owner, {}, 200);
    await post(url, member, { comment: 'a general note' });
    const todos = `${versionsBase(track)}/${v1}/todos`;
    const fromComment = await post(`${url}/${open[2].id}/todo`, team.owner, { assigneeId: member.id });
    const plain = await post(todos, team.owner, { todo: 'Bounce stems', dueDate: '2031-03-01' });
    const done = await post(todos, team.owner, { todo: 'Already done' });
    await call('PATCH', `${todos}/${done.id}`, team.owner.token, { done: true });
    const before = await commentsOf(team, track, v1);

    const v2 = await versionWith(team, track, song(20, 7, 3));
    // The job waits for the new waveform (computed by its own job) before mapping.
    await settle();

    const carried = (await detailOf(team, track, v2)).carried;
    expect(carried).toMatchObject({ fromVersionId: v1, comments: 7, todos: 2, mapped: true });
    expect(carried.confidence).toBeGreaterThanOrEqual(0.9);
    const resolution = 23 / 1000;
    expect(Math.abs(carried.offsetSeconds - 3)).toBeLessThanOrEqual(resolution);

    const copies = await commentsOf(team, track, v2);
    expect(copies).toHaveLength(7);
    for (const [i, original] of open.entries()) {
      const copy = copies.find((c) => c.carriedFrom?.commentId === original.id)!;
      expect(copy, `note ${i}`).toBeDefined();
      expect(copy).toMatchObject({
        parentId: null,
        comment: `note ${i}`,
        authorId: i % 2 ? member.id : team.owner.id,
        resolvedAt: null,
        carriedFrom: { versionId: v1, commentId: original.id, atSeconds: times[i], mapped: true },
      });
      expect(Math.abs((copy.atSeconds as number) - (times[i]! + 3))).toBeLessThanOrEqual(resolution);
    }
    const copyOf = (id: number) => copies.find((c) => c.carriedFrom?.commentId === id)!;
    expect(copyOf(replies[0].id)).toMatchObject({ parentId: copyOf(open[0].id).id, atSeconds: null });
    expect(copyOf(replies[1].id).parentId).toBe(copyOf(open[3].id).id);
    expect(Math.abs((copyOf(replies[1].id).atSeconds as number) - 17)).toBeLessThanOrEqual(resolution);
    expect(copies.some((c) => c.carriedFrom?.commentId === resolved.id)).toBe(false);

    const carriedTodos = await todosOf(team, track, v2);
    expect(carriedTodos).toEqual([
      expect.objectContaining({
        todo: 'note 2',
        commentId: copyOf(open[2].id).id,
        carriedFrom: { versionId: v1, todoId: fromComment.id },
      }),
      expect.objectContaining({
        todo: 'Bounce stems',
        commentId: null,
        carriedFrom: { versionId: v1, todoId: plain.id },
      }),
    ]);
    expect(copyOf(open[2].id).todoId).toBe(carriedTodos[0]!.id);
    // The originals stay where they were.
    expect(await commentsOf(team, track, v1)).toEqual(before);
    expect(await todosOf(team, track, v1)).toHaveLength(3);

    const events = await carriedEvents(team);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      subjectType: 'version',
      subjectId: String(v2),
      actorUserId: null,
      payload: {
        versionId: v2,
        trackId: track.id,
        teamId: team.id,
        fromVersionId: v1,
        comments: 7,
        todos: 2,
        mapped: true,
      },
    });

    // Idempotent: the job again, and two runs at once, carry nothing more.
    const deps = {
      db: ctx.app.deps.database.db,
      clock: ctx.clock,
      events: ctx.app.services.events,
      jobs: ctx.app.services.jobs,
    };
    await ctx.app.services.jobs.enqueue(deps.db, CARRY_NOTES_JOB, { versionId: v2 });
    await ctx.runJobs();
    await Promise.all([carryNotes(deps, { versionId: v2 }), carryNotes(deps, { versionId: v2 })]);
    expect(await commentsOf(team, track, v2)).toHaveLength(7);
    expect(await todosOf(team, track, v2)).toHaveLength(2);
    expect(await carriedEvents(team)).toHaveLength(1);
  });

  it('keeps the original times, unmapped, when the new audio is unrelated', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const v1 = await versionWith(team, track, song(20, 7));
    await settle();
    const url = `${versionsBase(track)}/${v1}/comments`;
    const c = await post(url, team.owner, { comment: 'kick', atSeconds: 10 });

    const v2 = await versionWith(team, track, song(20, 99));
    await settle();
    const carried = (await detailOf(team, track, v2)).carried;
    expect(carried).toMatchObject({ fromVersionId: v1, comments: 1, todos: 0, mapped: false });
    expect(carried.confidence).toBeLessThan(0.6);
    expect(await commentsOf(team, track, v2)).toEqual([
      expect.objectContaining({
        atSeconds: 10,
        carriedFrom: { versionId: v1, commentId: c.id, atSeconds: 10, mapped: false },
      }),
    ]);
    expect((await carriedEvents(team))[0]?.payload).toMatchObject({ mapped: false, comments: 1 });
  });

  it('carries from the newest earlier version with audio, and nothing to the first one', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const v1 = await versionWith(team, track, song(12, 3));
    await settle();
    expect((await detailOf(team, track, v1)).carried).toBeNull();
    await post(`${versionsBase(track)}/${v1}/comments`, team.owner, { comment: 'from v1', atSeconds: 4 });
    const v2 = await versionWith(team, track, song(12, 3));
    await settle();
    await post(`${versionsBase(track)}/${v2}/comments`, team.owner, { comment: 'from v2', atSeconds: 6 });
    const v3 = await versionWith(team, track, song(12, 3));
    await settle();
    const notes = (await commentsOf(team, track, v3)).map((c) => [c.comment, c.carriedFrom?.versionId]);
    // v2 holds the copy of v1's note and its own: both come from v2.
    expect(notes).toEqual([
      ['from v1', v2],
      ['from v2', v2],
    ]);
    expect(await carriedEvents(team)).toHaveLength(2);
  });
});
