import { eq, sql } from 'drizzle-orm';
import type { TestContext, TestTeam } from '../../../test/helpers/context.ts';
import { teamEvents } from '../../../test/helpers/events.ts';
import { interviewQuestions, interviews } from '../../db/schema/index.ts';

/** An interview as the API answers it to members. */
export type InterviewBody = {
  id: number;
  teamId: number;
  title: string;
  slug: string;
  status: 'draft' | 'published';
  publishedAt: string | null;
  intro: string | null;
  questions: { id: number; question: string; answer: string | null; position: number }[];
  articles: { title: string; url: string; outlet: string | null; publishedAt: string | null }[];
  videos: { title: string; url: string; platform: string | null }[];
  createdAt: string;
  updatedAt: string;
};

/** The replace body that keeps an interview as it is (questions by id), with `changes` on top. */
export function replaceBody(interview: InterviewBody, changes: Record<string, unknown> = {}) {
  return {
    title: interview.title,
    intro: interview.intro,
    questions: interview.questions.map(({ id, question, answer }) => ({ id, question, answer })),
    articles: interview.articles,
    videos: interview.videos,
    ...changes,
  };
}

/** Interviews made through the API, as the team's owner unless a token is given. */
export function interviewHelpers(ctx: TestContext) {
  async function newInterview(
    team: TestTeam,
    body: Record<string, unknown> = {},
    token = team.owner.token,
  ): Promise<InterviewBody> {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/interviews/',
      token,
      payload: { teamId: team.id, title: `Interview ${ctx.unique()}`, ...body },
    });
    if (res.statusCode !== 201) throw new Error(`interview failed: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  function replace(interview: InterviewBody, payload: object, token: string) {
    return ctx.request({ method: 'PUT', url: `/api/v1/interviews/${interview.id}`, token, payload });
  }

  /** Publishes the interview as it is. */
  async function publish(team: TestTeam, interview: InterviewBody): Promise<InterviewBody> {
    const res = await replace(interview, replaceBody(interview, { status: 'published' }), team.owner.token);
    if (res.statusCode !== 200) throw new Error(`publish failed: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  /** The team's events about interviews, in the order of the log. */
  const logOf = (team: TestTeam) => teamEvents(ctx.database.db, team.id, 'interview');

  /** How many interviews and interview questions the team holds. */
  async function countsOf(team: TestTeam) {
    const count = async (table: typeof interviews | typeof interviewQuestions) => {
      const [row] = await ctx.database.db
        .select({ n: sql<number>`count(*)::integer` })
        .from(table)
        .where(eq(table.teamId, team.id));
      return row!.n;
    };
    return { interviews: await count(interviews), questions: await count(interviewQuestions) };
  }

  return { newInterview, replace, publish, logOf, countsOf };
}
