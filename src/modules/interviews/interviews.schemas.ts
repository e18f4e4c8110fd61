import { type TSchema, Type } from '@sinclair/typebox';
import { INTERVIEW_STATUSES } from '../../db/schema/index.ts';
import { CalendarDate, HttpUrl, Id, Page, PageQuery, Timestamp } from '../../shared/schemas.ts';
import { Slug } from '../../shared/slugs.ts';
import { StringEnum } from '../../shared/string-enum.ts';

export const MAX_QUESTIONS = 200;
export const MAX_ARTICLES = 100;
export const MAX_VIDEOS = 100;

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Words = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', ...(description ? { description } : {}) });

export const InterviewStatus = StringEnum(INTERVIEW_STATUSES, {
  description: 'draft: seen by team members only; published: also on the public paths',
});

export const Question = Type.Object({
  id: Id,
  question: Type.String(),
  answer: Nullable(Type.String()),
  position: Type.Integer({ minimum: 0, description: 'Place in the interview, from 0' }),
});

export const Article = Type.Object({
  title: Type.String(),
  url: Type.String(),
  outlet: Nullable(Type.String({ description: 'The publication, e.g. Pitchfork' })),
  publishedAt: Nullable(Type.String({ format: 'date', description: "The article's date, YYYY-MM-DD" })),
});

export const Video = Type.Object({
  title: Type.String(),
  url: Type.String(),
  platform: Nullable(Type.String({ description: 'youtube, vimeo, tiktok, ...' })),
});

const Articles = Type.Array(Article);
const Videos = Type.Array(Video);

/** An interview as the members of its team see it. */
export const Interview = Type.Object({
  id: Id,
  teamId: Id,
  title: Type.String(),
  slug: Type.String({
    description: 'Unique in the team; names the interview in the by-slug and public paths',
  }),
  status: InterviewStatus,
  publishedAt: Type.Union([Timestamp, Type.Null()], {
    description: 'When it was published; null while it is a draft',
  }),
  intro: Nullable(Type.String()),
  questions: Type.Array(Question, { description: 'In their order' }),
  articles: Articles,
  videos: Videos,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** A published interview as anyone with a token sees it: no ids, no drafting history. */
export const PublicInterview = Type.Object({
  teamSlug: Type.String(),
  slug: Type.String(),
  title: Type.String(),
  intro: Nullable(Type.String()),
  publishedAt: Timestamp,
  updatedAt: Timestamp,
  questions: Type.Array(
    Type.Object({ question: Type.String(), answer: Nullable(Type.String()), position: Type.Integer() }),
  ),
  articles: Articles,
  videos: Videos,
});

const QuestionText = Words(500, 'The question, 1 to 500 characters');
const Answer = Nullable(Type.String({ maxLength: 20_000 }));

const NewQuestion = Type.Object({ question: QuestionText, answer: Type.Optional(Answer) });

const KeptOrNewQuestion = Type.Object({
  id: Type.Optional({
    ...Id,
    description: 'A question of this interview to keep (its id stays); leave out for a new question',
  }),
  question: QuestionText,
  answer: Type.Optional(Answer),
});

const ArticleInput = Type.Object({
  title: Words(300),
  url: HttpUrl,
  outlet: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  publishedAt: Type.Optional(Nullable(CalendarDate)),
});

const VideoInput = Type.Object({
  title: Words(300),
  url: HttpUrl,
  platform: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 50,
        description: "Left out: named after the URL's host when it is a known one (youtube, vimeo, ...)",
      }),
    ),
  ),
});

const Title = Words(200, 'The title, 1 to 200 characters');

const content = <Q extends TSchema>(question: Q) => ({
  intro: Type.Optional(Nullable(Type.String({ maxLength: 20_000 }))),
  questions: Type.Optional(Type.Array(question, { maxItems: MAX_QUESTIONS, description: 'In their order' })),
  articles: Type.Optional(Type.Array(ArticleInput, { maxItems: MAX_ARTICLES })),
  videos: Type.Optional(Type.Array(VideoInput, { maxItems: MAX_VIDEOS })),
});

export const CreateInterviewBody = Type.Object(
  {
    teamId: Id,
    title: Title,
    slug: Type.Optional({ ...Slug, description: 'Left out: made from the title (-2, -3, ... when taken)' }),
    ...content(NewQuestion),
  },
  { description: 'A new interview is a draft; publish it with PUT.' },
);

export const ReplaceInterviewBody = Type.Object(
  {
    title: Title,
    slug: Type.Optional({ ...Slug, description: 'Left out: the slug stays' }),
    status: Type.Optional({ ...InterviewStatus, description: 'Left out: the status stays' }),
    ...content(KeptOrNewQuestion),
  },
  {
    description:
      'Replaces the content: intro, questions, articles and videos left out are cleared. slug and status ' +
      'change only when given.',
  },
);

export const ListQuery = Type.Object({
  teamId: Id,
  status: Type.Optional(InterviewStatus),
  ...PageQuery,
});

export const TeamQuery = Type.Object({ teamId: Id, ...PageQuery });
export const PagingQuery = Type.Object(PageQuery);

export const TeamSlugParams = Type.Object({ a: { ...Slug, description: "The team's slug" } });
export const SlugParams = Type.Object({
  a: { ...Slug, description: "The team's slug" },
  b: { ...Slug, description: "The interview's slug" },
});

export const BankEntry = Type.Object(
  {
    question: Type.String({ description: 'The wording it was asked with most recently' }),
    uses: Type.Integer({ minimum: 1, description: "How many of the team's interviews ask it" }),
    lastUsedAt: Timestamp,
    lastInterviewId: Id,
  },
  { description: 'A question of the team, however often asked (same words, any case or spacing)' },
);

export const InterviewPage = Page(Interview);
export const PublicInterviewPage = Page(PublicInterview);
export const QuestionPage = Page(Question);
export const ArticlePage = Page(Article);
export const VideoPage = Page(Video);
export const BankPage = Page(BankEntry);
