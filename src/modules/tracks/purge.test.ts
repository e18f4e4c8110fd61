import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestTeam } from '../../../test/helpers/context.ts';
import { expectNoOrphans, testWav } from '../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';
import { domainEvents, files } from '../../db/schema/index.ts';

const ctx = useStorageTestContext('local', { env: { TRACK_RETENTION_DAYS: '30' } });
const DAY = 86_400_000;

/** A track created through the API whose first version has registered audio. */
async function trackWithAudio(team: TestTeam) {
  const created = await ctx.request({
    method: 'POST',
    url: '/api/v1/tracks/',
    token: team.owner.token,
    payload: { title: 'Doomed', team_id: team.id, audio_file_name: 'mix.wav' },
  });
  const track = created.json();
  const put = await ctx.fetchUrl(track.upload.uploadUrl, {
    method: 'PUT',
    headers: track.upload.headers,
    body: testWav(),
  });
  expect(put.status).toBeLessThan(300);
  const registered = await ctx.request({
    method: 'PUT',
    url: `/api/v1/tracks/${track.id}/versions/${track.versionId}/audio`,
    token: team.owner.token,
    payload: { fileKey: track.upload.fileKey },
  });
  expect(registered.statusCode, registered.body).toBe(200);
  return track as { id: number; versionId: number };
}

const remove = (team: TestTeam, id: number) =>
  ctx.request({ method: 'DELETE', url: `/api/v1/tracks/${id}?mode=soft`, token: team.owner.token });

/** Signs the owner in again: weeks pass in these tests, and access tokens last minutes. */
async function signIn(team: TestTeam): Promise<string> {
  const { email, password } = team.owner;
  const res = await ctx.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
  return res.json().access_token;
}
const restore = async (team: TestTeam, id: number) =>
  ctx.request({ method: 'POST', url: `/api/v1/tracks/${id}/restore`, token: await signIn(team) });
const filesOf = (team: TestTeam) =>
  ctx.app.deps.database.db.select({ id: files.id }).from(files).where(eq(files.teamId, team.id));

describe('purge of soft-deleted tracks', () => {
  it('keeps a soft-deleted track restorable for the retention period, then removes it with its files', async () => {
    const team = await ctx.newTeam();
    const doomed = await trackWithAudio(team);
    const kept = await trackWithAudio(team);
    expect(await filesOf(team)).toHaveLength(2);
    expect((await remove(team, doomed.id)).statusCode).toBe(204);
    expect((await remove(team, kept.id)).statusCode).toBe(204);

    ctx.clock.advance(29 * DAY);
    await ctx.runJobs();
    expect((await restore(team, kept.id)).statusCode).toBe(200);
    expect(await filesOf(team)).toHaveLength(2);

    ctx.clock.advance(2 * DAY);
    await ctx.runJobs();
    expect((await restore(team, doomed.id)).statusCode).toBe(404);
    const get = await ctx.request({
      method: 'GET',
      url: `/api/v1/tracks/${kept.id}`,
      token: await signIn(team),
    });
    expect(get.statusCode).toBe(200);
    expect(await filesOf(team)).toHaveLength(1);
    const purged = await ctx.app.deps.database.db
      .select({
        subjectId: domainEvents.subjectId,
        actor: domainEvents.actorUserId,
        data: domainEvents.payload,
      })
      .from(domainEvents)
      .where(and(eq(domainEvents.teamId, team.id), eq(domainEvents.type, 'track.deleted')));
    expect(purged.filter((e) => e.data.mode === 'purged')).toEqual([
      {
        subjectId: String(doomed.id),
        actor: null,
        data: { trackId: doomed.id, teamId: team.id, mode: 'purged' },
      },
    ]);
    await expectNoOrphans(ctx);
  });
});
