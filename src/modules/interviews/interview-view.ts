import type { InterviewRow } from './interviews.repository.ts';
import type { QuestionRow } from './questions.repository.ts';

export const questionView = ({ id, question, answer, position }: QuestionRow) => ({
  id,
  question,
  answer,
  position,
});

/** An interview as its team's members see it. */
export function interviewView(row: InterviewRow, questions: QuestionRow[]) {
  return { ...row, questions: questions.map(questionView) };
}

/** A published interview as anyone sees it: no ids, no status, no drafting history. */
export function publicView(row: InterviewRow, teamSlug: string, questions: QuestionRow[]) {
  return {
    teamSlug,
    slug: row.slug,
    title: row.title,
    intro: row.intro,
    publishedAt: row.publishedAt!,
    updatedAt: row.updatedAt,
    questions: questions.map(({ question, answer, position }) => ({ question, answer, position })),
    articles: row.articles,
    videos: row.videos,
  };
}

/** Each row with its own questions (`questions` ordered by interview, as `questionsOf` gives them). */
export function withQuestions<T>(
  rows: InterviewRow[],
  questions: QuestionRow[],
  view: (row: InterviewRow, questions: QuestionRow[]) => T,
): T[] {
  const byInterview = new Map<number, QuestionRow[]>();
  for (const question of questions) {
    const list = byInterview.get(question.interviewId);
    if (list) list.push(question);
    else byInterview.set(question.interviewId, [question]);
  }
  return rows.map((row) => view(row, byInterview.get(row.id) ?? []));
}
