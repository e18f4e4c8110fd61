import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdBy, stamp, timestamps } from './columns.ts';
import { teams } from './teams.ts';

export const INTERVIEW_STATUSES = ['draft', 'published'] as const;
export type InterviewStatus = (typeof INTERVIEW_STATUSES)[number];

/** Press coverage of an interview; `publishedAt` is the article's date (YYYY-MM-DD). */
export type InterviewArticle = {
  title: string;
  url: string;
  outlet: string | null;
  publishedAt: string | null;
};
export type InterviewVideo = { title: string; url: string; platform: string | null };

/**
 * A team's interview: a draft until published. `publishedAt` is set exactly while it is published, and the
 * slug names it in its team's public paths.
 */
export const interviews = pgTable(
  'interviews',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    slug: text().notNull(),
    status: text().$type<InterviewStatus>().notNull().default('draft'),
    publishedAt: stamp(),
    intro: text(),
    articles: jsonb().$type<InterviewArticle[]>().notNull().default([]),
    videos: jsonb().$type<InterviewVideo[]>().notNull().default([]),
    ...createdBy(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('interviews_team_slug_unique').on(t.teamId, t.slug),
    index('interviews_team_idx').on(t.teamId, t.id.desc()),
    index('interviews_team_status_idx').on(t.teamId, t.status, t.id.desc()),
    // The public list: a team's published interviews, newest first.
    index('interviews_team_published_idx')
      .on(t.teamId, t.publishedAt.desc(), t.id.desc())
      .where(sql`${t.status} = 'published'`),
    check('interviews_status', sql`${t.status} in ('draft', 'published')`),
    check('interviews_published_at', sql`(${t.status} = 'published') = (${t.publishedAt} is not null)`),
  ],
);

/**
 * The questions of an interview in their order. `questionKey` is the question's normalised wording (what
 * the team's question bank groups by); `askedAt` is when this wording entered the interview.
 */
export const interviewQuestions = pgTable(
  'interview_questions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    interviewId: integer()
      .notNull()
      .references(() => interviews.id, { onDelete: 'cascade' }),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    question: text().notNull(),
    questionKey: text().notNull(),
    answer: text(),
    position: integer().notNull(),
    askedAt: stamp().notNull().defaultNow(),
  },
  (t) => [
    index('interview_questions_interview_idx').on(t.interviewId, t.position, t.id),
    index('interview_questions_bank_idx').on(t.teamId, t.questionKey),
  ],
);
