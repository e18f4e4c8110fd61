import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf, wantsTotal } from '../../../shared/pagination.ts';
import { IdParams } from '../../../shared/schemas.ts';
import { SESSION_ONLY, session } from '../route-auth.ts';
import { NEXT_ACTIONS_RULE } from './next-actions.ts';
import {
  FollowUpPage,
  FollowUpsQuery,
  NextActionList,
  NextActionsQuery,
  ProspectPage,
  ProspectsQuery,
} from './rollups.schemas.ts';

const WHO_SEES =
  `${SESSION_ONLY} Members of the organisation see every team of it; a reader who only belongs to some of ` +
  'its teams sees those teams, and of the (personal) follow-up tasks only their own; anyone else gets 404. ' +
  'Reads only.';

/** The CRM roll-ups over an organisation's teams. */
export async function rollupsRoutes(app: App) {
  const { rollups } = app.services.organisations;

  app.get(
    '/api/v1/organisations/:id/follow-ups',
    {
      ...session,
      schema: {
        operationId: 'organisations.followUps.list',
        summary: "Follow-up tasks of the organisation's teams, earliest due first (undated last)",
        description:
          `Tasks the assistant bot took from chat messages. \`status\` defaults to open; \`assignee\` is a user id; ` +
          `\`dueBefore\` keeps tasks due before that instant. Keyset pages. ${WHO_SEES}`,
        params: IdParams,
        querystring: FollowUpsQuery,
        response: { 200: FollowUpPage },
      },
    },
    async (request) => {
      const { limit, count, ...query } = request.query;
      return rollups.followUps(principalOf(request), request.params.id, {
        ...query,
        limit: limit ?? 50,
        count: wantsTotal({ count }),
      });
    },
  );

  app.get(
    '/api/v1/organisations/:id/next-actions',
    {
      ...session,
      schema: {
        operationId: 'organisations.nextActions',
        summary: "A short prioritised list of what to do next across the organisation's teams",
        description: `${NEXT_ACTIONS_RULE} Keyset pages over those (limit and cursor). ${WHO_SEES}`,
        params: IdParams,
        querystring: NextActionsQuery,
        response: { 200: NextActionList },
      },
    },
    async (request) => rollups.nextActions(principalOf(request), request.params.id, pageOf(request.query)),
  );

  app.get(
    '/api/v1/organisations/:id/prospects',
    {
      ...session,
      schema: {
        operationId: 'organisations.prospects',
        summary: "Contacts of the organisation's teams still in the pipeline (lead status not won or lost)",
        description:
          'Grouped by stage, furthest first (negotiating, qualified, contacted, new), then by name. `counts` ' +
          `gives each stage's total. Keyset pages. ${WHO_SEES}`,
        params: IdParams,
        querystring: ProspectsQuery,
        response: { 200: ProspectPage },
      },
    },
    async (request) => {
      const { limit, ...query } = request.query;
      return rollups.prospects(principalOf(request), request.params.id, { ...query, limit: limit ?? 50 });
    },
  );
}
