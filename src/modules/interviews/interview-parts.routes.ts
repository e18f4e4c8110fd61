import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { IdParams } from '../../shared/schemas.ts';
import {
  ArticlePage,
  BankPage,
  PagingQuery,
  QuestionPage,
  TeamQuery,
  VideoPage,
} from './interviews.schemas.ts';
import { INTERVIEW_MEMBERS, MEMBERS, session } from './route-auth.ts';

/** The parts of an interview on their own, and the team's question bank. */
export async function interviewPartsRoutes(app: App) {
  const parts = app.services.interviewParts;

  app.get(
    '/api/v1/interviews/:id/articles',
    {
      ...session,
      schema: {
        operationId: 'interviews.articles.list',
        summary: "The interview's articles, in their order",
        description: `${INTERVIEW_MEMBERS} The articles of GET /interviews/{id}, paged (keyset).`,
        params: IdParams,
        querystring: PagingQuery,
        response: { 200: ArticlePage },
      },
    },
    async (request) => parts.articles(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.get(
    '/api/v1/interviews/:id/videos',
    {
      ...session,
      schema: {
        operationId: 'interviews.videos.list',
        summary: "The interview's videos, in their order",
        description: `${INTERVIEW_MEMBERS} The videos of GET /interviews/{id}, paged (keyset).`,
        params: IdParams,
        querystring: PagingQuery,
        response: { 200: VideoPage },
      },
    },
    async (request) => parts.videos(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.get(
    '/api/v1/interviews/:id/questions',
    {
      ...session,
      schema: {
        operationId: 'interviews.questions.list',
        summary: "The interview's questions and answers, in their order",
        description: `${INTERVIEW_MEMBERS} The questions of GET /interviews/{id}, by position, paged (keyset).`,
        params: IdParams,
        querystring: PagingQuery,
        response: { 200: QuestionPage },
      },
    },
    async (request) => parts.questions(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.get(
    '/api/v1/interviews/questions/team',
    {
      ...session,
      schema: {
        operationId: 'interviews.questions.bank',
        summary: "The team's question bank: every question its interviews ask, most used first",
        description:
          `${MEMBERS} One entry per question across the team's interviews, drafts included; questions that differ ` +
          'only in letter case or spacing are one. uses counts the interviews that ask it; lastUsedAt is ' +
          'when it was last added to one of them (a question whose wording changes counts as added then); ' +
          'question is the wording of that latest asking. Ordered by uses, then lastUsedAt, newest first.',
        querystring: TeamQuery,
        response: { 200: BankPage },
      },
    },
    async (request) => {
      const { teamId, ...page } = request.query;
      return parts.bank(principalOf(request), teamId, pageOf(page));
    },
  );
}
