import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  type InterviewArticle,
  type InterviewStatus,
  type InterviewVideo,
  interviews,
  teams,
} from '../../db/schema/index.ts';
import { newTeamRow, type Stamps } from '../../shared/authorship.ts';
import type { SlugScope } from '../../shared/slugs.ts';

export const interviewColumns = {
  id: interviews.id,
  teamId: interviews.teamId,
  title: interviews.title,
  slug: interviews.slug,
  status: interviews.status,
  publishedAt: interviews.publishedAt,
  intro: interviews.intro,
  articles: interviews.articles,
  videos: interviews.videos,
  createdAt: interviews.createdAt,
  updatedAt: interviews.updatedAt,
};

export type InterviewRow = {
  id: number;
  teamId: number;
  title: string;
  slug: string;
  status: InterviewStatus;
  publishedAt: Date | null;
  intro: string | null;
  articles: InterviewArticle[];
  videos: InterviewVideo[];
  createdAt: Date;
  updatedAt: Date;
};

/** The fields a create or a replace writes. */
export type InterviewValues = {
  title: string;
  slug: string;
  status: InterviewStatus;
  publishedAt: Date | null;
  intro: string | null;
  articles: InterviewArticle[];
  videos: InterviewVideo[];
};

/** The namespace of one team's interview slugs. */
export const interviewSlugs = (teamId: number): SlugScope => ({
  table: interviews,
  column: interviews.slug,
  within: eq(interviews.teamId, teamId),
});

// Spelled as the indexes are: a bare DESC means NULLS FIRST, which would not match them.
const byIdDesc = sql`${interviews.id} desc nulls last`;

/** Up to `limit` of the team's interviews below id `before`, newest first. */
export function listInterviews(
  db: Db,
  filter: { teamId: number; status?: InterviewStatus | undefined },
  before: number | undefined,
  limit: number,
): Promise<InterviewRow[]> {
  return db
    .select(interviewColumns)
    .from(interviews)
    .where(
      and(
        eq(interviews.teamId, filter.teamId),
        filter.status === undefined ? undefined : eq(interviews.status, filter.status),
        before === undefined ? undefined : sql`${interviews.id} < ${before}::integer`,
      ),
    )
    .orderBy(byIdDesc)
    .limit(limit);
}

/** Where a page of published interviews ends: `[publishedAt, id]` of its last one. */
export type PublishedKey = [publishedAt: string, id: number];

const published = (teamId: number): SQL | undefined =>
  and(eq(interviews.teamId, teamId), eq(interviews.status, 'published'));

/** Up to `limit` of the team's published interviews after `after`, newest publication first. */
export function listPublished(
  db: Db,
  teamId: number,
  after: PublishedKey | undefined,
  limit: number,
): Promise<InterviewRow[]> {
  const afterKey = after
    ? sql`(${interviews.publishedAt}, ${interviews.id}) < (${after[0]}::timestamptz, ${after[1]}::integer)`
    : undefined;
  return db
    .select(interviewColumns)
    .from(interviews)
    .where(and(published(teamId), afterKey))
    .orderBy(sql`${interviews.publishedAt} desc nulls last`, byIdDesc)
    .limit(limit);
}

export async function findPublished(db: Db, teamId: number, slug: string): Promise<InterviewRow | undefined> {
  const [row] = await db
    .select(interviewColumns)
    .from(interviews)
    .where(and(published(teamId), eq(interviews.slug, slug)))
    .limit(1);
  return row;
}

export async function findTeamBySlug(
  db: Db,
  slug: string,
): Promise<{ id: number; slug: string } | undefined> {
  const [row] = await db.select({ id: teams.id, slug: teams.slug }).from(teams).where(eq(teams.slug, slug));
  return row;
}

export async function insertInterview(
  db: Db,
  values: InterviewValues,
  stamps: Stamps,
): Promise<InterviewRow> {
  const [row] = await db
    .insert(interviews)
    .values({
      ...values,
      ...newTeamRow(stamps),
    })
    .returning(interviewColumns);
  return row!;
}

/** The interview, locked until the transaction ends: one replace at a time rewrites its questions. */
export async function lockInterview(db: Db, teamId: number, id: number): Promise<InterviewRow | undefined> {
  const [row] = await db
    .select(interviewColumns)
    .from(interviews)
    .where(and(eq(interviews.id, id), eq(interviews.teamId, teamId)))
    .for('update');
  return row;
}

export async function updateInterview(
  db: Db,
  id: number,
  values: InterviewValues,
  now: Date,
): Promise<InterviewRow> {
  const [row] = await db
    .update(interviews)
    .set({ ...values, updatedAt: now })
    .where(eq(interviews.id, id))
    .returning(interviewColumns);
  return row!;
}

export async function deleteInterview(db: Db, teamId: number, id: number): Promise<InterviewRow | undefined> {
  const [row] = await db
    .delete(interviews)
    .where(and(eq(interviews.id, id), eq(interviews.teamId, teamId)))
    .returning(interviewColumns);
  return row;
}
