import type { App } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import {
  Interview,
  PagingQuery,
  PublicInterview,
  PublicInterviewPage,
  SlugParams,
  TeamSlugParams,
} from './interviews.schemas.ts';
import { ANY_TOKEN, anyToken, MEMBERS, session } from './route-auth.ts';

/** Interviews by slugs: `{a}` is a team's slug, `{b}` an interview's slug in that team. */
export async function bySlugRoutes(app: App) {
  const published = app.services.publishedInterviews;

  app.get(
    '/api/v1/interviews/by-slug/:a/:b',
    {
      ...session,
      schema: {
        operationId: 'interviews.bySlug',
        summary: "One interview by its team's slug and its own, drafts included (members of the team)",
        description: `${MEMBERS} An unknown team or interview slug is 404 alike. The same answer as GET /interviews/{id}.`,
        params: SlugParams,
        response: { 200: Interview },
      },
    },
    async (request) => published.bySlug(principalOf(request), request.params.a, request.params.b),
  );

  app.get(
    '/api/v1/interviews/public/teams/:a',
    {
      ...anyToken,
      schema: {
        operationId: 'interviews.public.list',
        summary: "A team's published interviews, most recently published first",
        description:
          `${ANY_TOKEN} Drafts never appear; ids, status and drafting dates are left out. An unknown team ` +
          'slug is 404. Keyset pages.',
        params: TeamSlugParams,
        querystring: PagingQuery,
        response: { 200: PublicInterviewPage },
      },
    },
    async (request) => published.list(request.params.a, pageOf(request.query)),
  );

  app.get(
    '/api/v1/interviews/public/teams/:a/:b',
    {
      ...anyToken,
      schema: {
        operationId: 'interviews.public.get',
        summary: "One published interview by its team's slug and its own",
        description: `${ANY_TOKEN} A draft is 404, as an unknown slug is.`,
        params: SlugParams,
        response: { 200: PublicInterview },
      },
    },
    async (request) => published.get(request.params.a, request.params.b),
  );
}
