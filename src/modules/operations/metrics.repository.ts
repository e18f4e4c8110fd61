import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { jobs, webhookDeliveries } from '../../db/schema/index.ts';

export type BacklogQueries = { db: Db };

export type JobBacklogRow = { type: string; status: string; count: number; oldestDueSeconds: number };

const HOUR_MS = 3_600_000;

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** Jobs by type and status, and for queued ones how long the oldest due one has waited. */
export async function jobBacklog({ db }: BacklogQueries, now: Date): Promise<JobBacklogRow[]> {
  const rows = await db
    .select({
      type: jobs.type,
      status: jobs.status,
      count: sql<number>`count(*)::int`,
      oldestDueSeconds: sql<number>`coalesce(extract(epoch from ${at(now)} - min(${jobs.runAt}) filter (where ${jobs.runAt} <= ${at(now)})), 0)::float8`,
    })
    .from(jobs)
    .groupBy(jobs.type, jobs.status);
  return rows.map((row) => ({
    ...row,
    count: Number(row.count),
    oldestDueSeconds: Number(row.oldestDueSeconds),
  }));
}

/** Webhook attempts still waiting (and the oldest one's age), and the attempts that failed in the last hour. */
export async function webhookBacklog(
  { db }: BacklogQueries,
  now: Date,
): Promise<{ pending: number; oldestPendingSeconds: number; failedLastHour: number }> {
  const [pending] = await db
    .select({
      count: sql<number>`count(*)::int`,
      oldest: sql<number>`coalesce(extract(epoch from ${at(now)} - min(${webhookDeliveries.createdAt})), 0)::float8`,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, 'pending'));
  const [failed] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'failed'),
        gt(webhookDeliveries.createdAt, new Date(now.getTime() - HOUR_MS)),
      ),
    );
  return {
    pending: Number(pending?.count ?? 0),
    oldestPendingSeconds: Math.max(0, Number(pending?.oldest ?? 0)),
    failedLastHour: Number(failed?.count ?? 0),
  };
}

/** This process's PostgreSQL connections by state (`active`, `idle`, `idle in transaction`), the asking one left out. */
export async function poolConnections(
  { db }: BacklogQueries,
  applicationName: string,
): Promise<{ state: string; count: number }[]> {
  const rows = (await db.execute(sql`
    select coalesce(state, 'unknown') as state, count(*)::int as count from pg_stat_activity
    where application_name = ${applicationName} and pid <> pg_backend_pid() group by state`)) as unknown as
    | { state: string; count: number }[]
    | { rows: { state: string; count: number }[] };
  return Array.isArray(rows) ? rows : rows.rows;
}
