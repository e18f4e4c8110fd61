import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  type MusicToolError,
  type MusicToolOperation,
  musicToolRuns,
  type StoredVersionAnalysis,
  teams,
  versionAnalyses,
} from '../../../db/schema/index.ts';
import type { Actor } from '../../../events/actor.ts';
import { createdByOf } from '../../../shared/authorship.ts';

export type RunRow = typeof musicToolRuns.$inferSelect;

const unfinished = inArray(musicToolRuns.status, ['queued', 'running']);

export async function insertRun(
  db: Db,
  values: {
    id: string;
    teamId: number;
    trackId: number;
    versionId: number;
    operation: MusicToolOperation;
    parameters: Record<string, string>;
  },
  actor: Actor,
  now: Date,
): Promise<RunRow> {
  const [row] = await db
    .insert(musicToolRuns)
    .values({
      ...values,
      status: 'queued',
      ...createdByOf(actor),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

/**
 * Holds the team's row until the transaction ends, so requests of one team are decided one at a time in
 * every process sharing the database (the limit and the search for the same request then hold).
 */
export async function lockTeamRuns(tx: Db, teamId: number): Promise<void> {
  await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).for('no key update');
}

/** The team's queued or running runs. */
export async function countUnfinishedRuns(db: Db, teamId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(musicToolRuns)
    .where(and(eq(musicToolRuns.teamId, teamId), unfinished));
  return row?.n ?? 0;
}

/** A queued or running run of the same operation with the same options on the version, if any. */
export async function findUnfinishedRun(
  db: Db,
  run: {
    teamId: number;
    versionId: number;
    operation: MusicToolOperation;
    parameters: Record<string, string>;
  },
): Promise<RunRow | undefined> {
  const [row] = await db
    .select()
    .from(musicToolRuns)
    .where(
      and(
        eq(musicToolRuns.teamId, run.teamId),
        eq(musicToolRuns.versionId, run.versionId),
        eq(musicToolRuns.operation, run.operation),
        sql`${musicToolRuns.parameters} = ${JSON.stringify(run.parameters)}::jsonb`,
        unfinished,
      ),
    )
    .limit(1);
  return row;
}

/** A run of the version (a run of another version is not found). */
export async function findRun(db: Db, versionId: number, runId: string): Promise<RunRow | undefined> {
  const [row] = await db
    .select()
    .from(musicToolRuns)
    .where(and(eq(musicToolRuns.id, runId), eq(musicToolRuns.versionId, versionId)))
    .limit(1);
  return row;
}

export async function getRun(db: Db, runId: string): Promise<RunRow | undefined> {
  const [row] = await db.select().from(musicToolRuns).where(eq(musicToolRuns.id, runId)).limit(1);
  return row;
}

/** Marks an unfinished run as running (again, after a restart); undefined when it is finished or gone. */
export async function startRun(db: Db, runId: string, now: Date): Promise<RunRow | undefined> {
  const [row] = await db
    .update(musicToolRuns)
    .set({ status: 'running', startedAt: now, updatedAt: now })
    .where(and(eq(musicToolRuns.id, runId), unfinished))
    .returning();
  return row;
}

/** Records a run's outcome once: false when it was finished already. */
export async function finishRun(
  db: Db,
  runId: string,
  outcome: { result: Record<string, unknown> } | { error: MusicToolError },
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(musicToolRuns)
    .set({
      ...('result' in outcome
        ? { status: 'succeeded' as const, result: outcome.result, error: null }
        : { status: 'failed' as const, result: null, error: outcome.error }),
      finishedAt: now,
      updatedAt: now,
    })
    .where(and(eq(musicToolRuns.id, runId), unfinished))
    .returning({ id: musicToolRuns.id });
  return rows.length > 0;
}

/** Stores the version's latest analysis (replacing an earlier one). */
export async function saveAnalysis(
  db: Db,
  versionId: number,
  runId: string,
  analysis: StoredVersionAnalysis,
  now: Date,
): Promise<void> {
  await db
    .insert(versionAnalyses)
    .values({ versionId, runId, analysis, analysedAt: now })
    .onConflictDoUpdate({ target: versionAnalyses.versionId, set: { runId, analysis, analysedAt: now } });
}

/** The version's latest analysis as its detail shows it, or null. */
export async function findAnalysis(db: Db, versionId: number) {
  const [row] = await db
    .select({ analysis: versionAnalyses.analysis, analysedAt: versionAnalyses.analysedAt })
    .from(versionAnalyses)
    .where(eq(versionAnalyses.versionId, versionId))
    .limit(1);
  return row ? { ...row.analysis, analysedAt: row.analysedAt } : null;
}
