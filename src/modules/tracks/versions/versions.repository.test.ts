import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../../test/helpers/context.ts';
import { versionAnalyses } from '../../../db/schema/index.ts';
import { setVersionAudio } from './versions.repository.ts';

const ctx = useTestContext();

describe('a version’s audio', () => {
  it('forgets the analysis of the audio it replaces', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const db = ctx.database.db;
    await db.insert(versionAnalyses).values({
      versionId: track.versionId,
      runId: randomUUID(),
      analysis: {
        loudness: { integratedLufs: -14, loudnessRangeLu: 5, truePeakDbtp: -1 },
        tempoBpm: 120,
        key: null,
        durationSeconds: 180,
      },
      analysedAt: new Date(),
    });
    await setVersionAudio(db, track.versionId, {
      audioFileKey: 'teams/1/new.wav',
      audioFileName: 'new.wav',
      durationSeconds: 200,
      updatedAt: new Date(),
    });
    expect(
      await db.select().from(versionAnalyses).where(eq(versionAnalyses.versionId, track.versionId)),
    ).toEqual([]);
  });
});
