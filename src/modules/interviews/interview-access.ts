import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type Placeholders, preparedQuery } from '../../db/prepared.ts';
import { interviews, teamMembers, teams } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import { errors } from '../../shared/errors.ts';
import { sessionUserId } from '../../shared/tenancy.ts';
import { type InterviewRow, interviewColumns } from './interviews.repository.ts';

const isMember = (userId: unknown) =>
  sql`exists (select 1 from ${teamMembers} where ${teamMembers.teamId} = "interviews"."team_id" and ${teamMembers.userId} = ${userId})`;

const interviewOfMember = preparedQuery(
  'interview_of_member',
  (db, p: Placeholders<{ interviewId: number; userId: string }>) =>
    db
      .select(interviewColumns)
      .from(interviews)
      .where(and(eq(interviews.id, p.interviewId), isMember(p.userId)))
      .limit(1),
);

const interviewOfMemberBySlug = preparedQuery(
  'interview_of_member_by_slug',
  (db, p: Placeholders<{ teamSlug: string; slug: string; userId: string }>) =>
    db
      .select(interviewColumns)
      .from(interviews)
      .innerJoin(teams, eq(teams.id, interviews.teamId))
      .where(and(eq(teams.slug, p.teamSlug), eq(interviews.slug, p.slug), isMember(p.userId)))
      .limit(1),
);

/**
 * The tenancy guard of one interview: visible to the members of its team; anything else (missing, another
 * team's) is 404.
 */
export async function requireInterview(
  db: Db,
  principal: Principal,
  interviewId: number,
): Promise<InterviewRow> {
  const [row] = await interviewOfMember(db, { interviewId, userId: sessionUserId(principal) });
  if (!row) throw errors.notFound('interview');
  return row as InterviewRow;
}

/** The interview `slug` of the team whose slug is `teamSlug`, drafts included, for that team's members. */
export async function requireInterviewBySlug(
  db: Db,
  principal: Principal,
  teamSlug: string,
  slug: string,
): Promise<InterviewRow> {
  const [row] = await interviewOfMemberBySlug(db, { teamSlug, slug, userId: sessionUserId(principal) });
  if (!row) throw errors.notFound('interview');
  return row as InterviewRow;
}
