import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { IdParams } from '../../shared/schemas.ts';
import { approvalRequiredResponse } from './status-config.approval-error.ts';
import { StatusConfig, StatusConfigPatchBody } from './status-config.schemas.ts';

const session = { config: { auth: auth.session } } as const;

export async function statusConfigRoutes(app: App) {
  const statusConfig = app.services.teamStatusConfig;

  app.get(
    '/api/v1/teams/:id/status-config',
    {
      ...session,
      schema: {
        operationId: 'teams.statusConfig.get',
        summary: "The team's track and album statuses, in board order",
        description:
          'Session tokens only; any member of the team (404 otherwise). The first status of each list is ' +
          'where new tracks or albums start. Changes nothing.',
        params: IdParams,
        response: { 200: StatusConfig },
      },
    },
    async (request) => statusConfig.get(principalOf(request), request.params.id),
  );

  app.patch(
    '/api/v1/teams/:id/status-config',
    {
      ...session,
      schema: {
        operationId: 'teams.statusConfig.update',
        summary: 'Replace the track and/or album status list (owner or admin)',
        description:
          'Session tokens only; owners and admins (403 `forbidden` for members). Each list given replaces the ' +
          'current one (1 to 50 statuses, ids unique: 400 validation_failed otherwise, also for a move whose ' +
          'target is not in the new list). A removed status that items still use needs a target in ' +
          '`patch.moves.<list>` (its items move there in the same transaction); otherwise 409 `conflict` ' +
          'naming the statuses in use. A status may carry `requires` (approvals, roles, autoAdvance): a track ' +
          'then enters it only with that many approvals of its current version, an album only when every ' +
          'track on it has them (409 `approval_required` otherwise, from every way of moving one there, ' +
          'including the moves of this patch). `requires` on the first status, or `autoAdvance` on an album ' +
          'status, is 400.',
        params: IdParams,
        body: StatusConfigPatchBody,
        response: {
          200: StatusConfig,
          ...approvalRequiredResponse(
            'conflict: a removed status is in use and has no target in patch.moves; approval_required: ' +
              'a move of patch.moves goes into a status whose approvals its items lack',
          ),
        },
      },
    },
    async (request) => statusConfig.update(principalOf(request), request.params.id, request.body.patch),
  );
}
