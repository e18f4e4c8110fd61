import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { errorResponse, IdParams, NoContent } from '../../shared/schemas.ts';
import {
  CreateInterviewBody,
  Interview,
  InterviewPage,
  ListQuery,
  ReplaceInterviewBody,
} from './interviews.schemas.ts';
import { INTERVIEW_MEMBERS, MEMBERS, session } from './route-auth.ts';

const slugTaken = { 409: errorResponse('Another interview of the team has this slug') };

/** Interviews themselves: list, create, read, replace and delete. */
export async function interviewsRoutes(app: App) {
  const interviews = app.services.interviews;

  app.get(
    '/api/v1/interviews/',
    {
      ...session,
      schema: {
        operationId: 'interviews.list',
        summary: "List a team's interviews, newest first, drafts included",
        description:
          `${MEMBERS} status filters to drafts or published ones. Newest first (by id); keyset pages: pass ` +
          'nextCursor as cursor.',
        querystring: ListQuery,
        response: { 200: InterviewPage },
      },
    },
    async (request) => {
      const { limit, cursor, ...filters } = request.query;
      return interviews.list(principalOf(request), { ...filters, ...pageOf({ limit, cursor }) });
    },
  );

  app.post(
    '/api/v1/interviews/',
    {
      ...session,
      schema: {
        operationId: 'interviews.create',
        summary: 'Create an interview (a draft)',
        description:
          `${MEMBERS} Without slug, the slug is made from the title (lower-case ASCII and hyphens; -2, -3, ... when ` +
          'the team has it already; "interview" when the title has no letters or digits). A slug given ' +
          'that the team has already is 409 `conflict`. Links (articles, videos) must be http(s) URLs (400). ' +
          'Publish with PUT. Records `interview.created` in the event log; no webhook.',
        body: CreateInterviewBody,
        response: { 201: Interview, ...slugTaken },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await interviews.create(principalOf(request), request.body)),
  );

  app.get(
    '/api/v1/interviews/:id',
    {
      ...session,
      schema: {
        operationId: 'interviews.get',
        summary: 'One interview with its questions, articles and videos',
        description: `${INTERVIEW_MEMBERS} Drafts included.`,
        params: IdParams,
        response: { 200: Interview },
      },
    },
    async (request) => interviews.get(principalOf(request), request.params.id),
  );

  app.put(
    '/api/v1/interviews/:id',
    {
      ...session,
      schema: {
        operationId: 'interviews.replace',
        summary: "Replace an interview's fields; publish or unpublish it",
        description:
          `${INTERVIEW_MEMBERS} title, intro, questions, articles and videos are replaced (left out: cleared); slug and status ` +
          'change only when given. Questions take the order given: one sent with its id keeps that id, one ' +
          'without is new, and questions left out are deleted. Publishing stamps publishedAt, which stays ' +
          'while the interview stays published; going back to draft clears it. A question id that is not ' +
          "one of the interview's, or sent twice, is 400; a slug the team has already is 409 `conflict`. " +
          'Records `interview.updated`, `interview.published` or `interview.unpublished`; published ' +
          'interviews show on the public paths at once.',
        params: IdParams,
        body: ReplaceInterviewBody,
        response: { 200: Interview, ...slugTaken },
      },
    },
    async (request) => interviews.replace(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/interviews/:id',
    {
      ...session,
      schema: {
        operationId: 'interviews.delete',
        summary: 'Delete an interview with its questions',
        description: `${INTERVIEW_MEMBERS} It leaves the public paths at once. Records \`interview.deleted\`.`,
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await interviews.remove(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
