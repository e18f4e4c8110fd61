import type { InterviewArticle, InterviewVideo } from '../../db/schema/index.ts';
import { type ErrorDetail, errors } from '../../shared/errors.ts';

export type QuestionInput = { id?: number | undefined; question: string; answer?: string | null | undefined };
type ArticleInput = {
  title: string;
  url: string;
  outlet?: string | null | undefined;
  publishedAt?: string | null | undefined;
};
type VideoInput = { title: string; url: string; platform?: string | null | undefined };

/** The content fields of a create or replace body: left out means empty. */
export type ContentInput = {
  title: string;
  intro?: string | null | undefined;
  questions?: QuestionInput[] | undefined;
  articles?: ArticleInput[] | undefined;
  videos?: VideoInput[] | undefined;
};

/** A question as it is stored: its wording trimmed, and the key the question bank groups by. */
export type QuestionValues = {
  id?: number | undefined;
  question: string;
  questionKey: string;
  answer: string | null;
};

export type Content = {
  title: string;
  intro: string | null;
  questions: QuestionValues[];
  articles: InterviewArticle[];
  videos: InterviewVideo[];
};

/** The same question in any case or spacing: what makes two questions one in the question bank. */
export const questionKey = (question: string) => question.trim().replace(/\s+/g, ' ').toLowerCase();

const PLATFORMS: [RegExp, string][] = [
  [/(^|\.)(youtube\.com|youtu\.be)$/, 'youtube'],
  [/(^|\.)vimeo\.com$/, 'vimeo'],
  [/(^|\.)tiktok\.com$/, 'tiktok'],
  [/(^|\.)instagram\.com$/, 'instagram'],
  [/(^|\.)(facebook\.com|fb\.watch)$/, 'facebook'],
  [/(^|\.)twitch\.tv$/, 'twitch'],
  [/(^|\.)dailymotion\.com$/, 'dailymotion'],
  [/(^|\.)(x\.com|twitter\.com)$/, 'x'],
];

/** The host of an http(s) URL, or undefined when the URL parser does not take it. */
function webHost(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    const web = (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
    return web ? parsed.hostname : undefined;
  } catch {
    return undefined;
  }
}

const platformOf = (host: string) => PLATFORMS.find(([pattern]) => pattern.test(host))?.[1] ?? null;

/**
 * The stored form of a body's content, or 400 naming every link the URL parser refuses (the schema's pattern
 * only checks the shape).
 */
export function contentOf(input: ContentInput): Content {
  const problems: ErrorDetail[] = [];
  const hostOf = (url: string, path: string) => {
    const host = webHost(url);
    if (host === undefined) problems.push({ path, message: 'must be an http or https URL' });
    return host ?? '';
  };
  const articles = (input.articles ?? []).map((a, i) => {
    hostOf(a.url, `/body/articles/${i}/url`);
    return {
      title: a.title.trim(),
      url: a.url,
      outlet: a.outlet ?? null,
      publishedAt: a.publishedAt ?? null,
    };
  });
  const videos = (input.videos ?? []).map((v, i) => {
    const host = hostOf(v.url, `/body/videos/${i}/url`);
    return { title: v.title.trim(), url: v.url, platform: v.platform ?? platformOf(host.toLowerCase()) };
  });
  if (problems.length > 0) throw errors.validation(problems);
  return {
    title: input.title.trim(),
    intro: input.intro ?? null,
    questions: (input.questions ?? []).map((q) => ({
      id: q.id,
      question: q.question.trim(),
      questionKey: questionKey(q.question),
      answer: q.answer ?? null,
    })),
    articles,
    videos,
  };
}

/** 400 when a question id is sent twice or is not one of the interview's questions. */
export function checkKeptQuestions(questions: QuestionValues[], existing: Set<number>): void {
  const seen = new Set<number>();
  const problems: ErrorDetail[] = [];
  questions.forEach((q, i) => {
    if (q.id === undefined) return;
    const path = `/body/questions/${i}/id`;
    if (!existing.has(q.id)) problems.push({ path, message: 'is not a question of this interview' });
    else if (seen.has(q.id)) problems.push({ path, message: 'appears twice' });
    seen.add(q.id);
  });
  if (problems.length > 0) throw errors.validation(problems);
}
