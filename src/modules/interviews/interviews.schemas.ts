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

const EXAMPLE_QUESTION = {
  id: 31,
  question: 'What inspired "Night Drive"?',
  answer: 'Long drives home from the studio through an empty Berlin at 4 a.m.',
  position: 0,
};
const EXAMPLE_ARTICLE = {
  title: 'Luna Vale on the making of Night Drives',
  url: 'https://magazine.example.com/luna-vale-night-drives',
  outlet: 'Synth Weekly',
  publishedAt: '2026-03-10',
};
const EXAMPLE_VIDEO = {
  title: 'Night Drive (live session)',
  url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  platform: 'youtube',
};

export const Question = Type.Object(
  {
    id: Id,
    question: Type.String(),
    answer: Nullable(Type.String()),
    position: Type.Integer({ minimum: 0, description: 'Place in the interview, from 0' }),
  },
  {
    title: 'InterviewQuestion',
    description: 'A question of an interview and its answer',
    examples: [EXAMPLE_QUESTION],
  },
);

export const Article = Type.Object(
  {
    title: Type.String(),
    url: Type.String({ description: 'An http(s) URL' }),
    outlet: Nullable(Type.String({ description: 'The publication, e.g. Pitchfork' })),
    publishedAt: Nullable(Type.String({ format: 'date', description: "The article's date, YYYY-MM-DD" })),
  },
  {
    title: 'InterviewArticle',
    description: 'An article linked to an interview',
    examples: [EXAMPLE_ARTICLE],
  },
);

export const Video = Type.Object(
  {
    title: Type.String(),
    url: Type.String({ description: 'An http(s) URL' }),
    platform: Nullable(Type.String({ description: 'youtube, vimeo, tiktok, ...' })),
  },
  { title: 'InterviewVideo', description: 'A video linked to an interview', examples: [EXAMPLE_VIDEO] },
);

const Articles = Type.Array(Article);
const Videos = Type.Array(Video);

/** An interview as the members of its team see it. */
export const Interview = Type.Object(
  {
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
  },
  {
    title: 'Interview',
    description: 'An interview of a team, as its members see it (drafts included)',
    examples: [
      {
        id: 14,
        teamId: 7,
        title: 'Luna Vale on Night Drives',
        slug: 'luna-vale-on-night-drives',
        status: 'published',
        publishedAt: '2026-03-14T09:30:00.000Z',
        intro: 'Luna Vale talks about the nights behind her new album.',
        questions: [EXAMPLE_QUESTION],
        articles: [EXAMPLE_ARTICLE],
        videos: [EXAMPLE_VIDEO],
        createdAt: '2026-03-01T12:00:00.000Z',
        updatedAt: '2026-03-14T09:30:00.000Z',
      },
    ],
  },
);

/** A published interview as anyone with a token sees it: no ids, no drafting history. */
export const PublicInterview = Type.Object(
  {
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
  },
  {
    title: 'PublicInterview',
    description: 'A published interview as anyone with a token sees it',
    examples: [
      {
        teamSlug: 'luna-vale',
        slug: 'luna-vale-on-night-drives',
        title: 'Luna Vale on Night Drives',
        intro: 'Luna Vale talks about the nights behind her new album.',
        publishedAt: '2026-03-14T09:30:00.000Z',
        updatedAt: '2026-03-14T09:30:00.000Z',
        questions: [{ question: EXAMPLE_QUESTION.question, answer: EXAMPLE_QUESTION.answer, position: 0 }],
        articles: [EXAMPLE_ARTICLE],
        videos: [EXAMPLE_VIDEO],
      },
    ],
  },
);

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
  url: { ...HttpUrl, description: `${HttpUrl.description}; it must also parse as a URL (else 400)` },
  outlet: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  publishedAt: Type.Optional(Nullable(CalendarDate)),
});

const VideoInput = Type.Object({
  title: Words(300),
  url: { ...HttpUrl, description: `${HttpUrl.description}; it must also parse as a URL (else 400)` },
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
  {
    title: 'InterviewCreate',
    description: 'A new interview is a draft; publish it with PUT.',
    examples: [
      {
        teamId: 7,
        title: 'Luna Vale on Night Drives',
        intro: 'Luna Vale talks about the nights behind her new album.',
        questions: [{ question: EXAMPLE_QUESTION.question, answer: EXAMPLE_QUESTION.answer }],
        articles: [EXAMPLE_ARTICLE],
        videos: [{ title: EXAMPLE_VIDEO.title, url: EXAMPLE_VIDEO.url }],
      },
    ],
  },
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
      "change only when given. A question id must be one of this interview's questions, at most once (400).",
    title: 'InterviewReplace',
    examples: [
      {
        title: 'Luna Vale on Night Drives',
        status: 'published',
        intro: 'Luna Vale talks about the nights behind her new album.',
        questions: [
          { id: 31, question: EXAMPLE_QUESTION.question, answer: EXAMPLE_QUESTION.answer },
          { question: 'Which synth is all over the record?', answer: 'A borrowed Juno-60.' },
        ],
        articles: [EXAMPLE_ARTICLE],
        videos: [EXAMPLE_VIDEO],
      },
    ],
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
  {
    title: 'InterviewQuestionBankEntry',
    description: 'A question of the team, however often asked (same words, any case or spacing)',
    examples: [
      {
        question: 'What inspired the record?',
        uses: 4,
        lastUsedAt: '2026-03-14T09:30:00.000Z',
        lastInterviewId: 14,
      },
    ],
  },
);

export const InterviewPage = Page(Interview);
export const PublicInterviewPage = Page(PublicInterview);
export const QuestionPage = Page(Question);
export const ArticlePage = Page(Article);
export const VideoPage = Page(Video);
export const BankPage = Page(BankEntry);
