import { Type } from '@sinclair/typebox';
import { TEAM_ROLES } from '../../db/schema/index.ts';
import { Id } from '../../shared/schemas.ts';

const EXAMPLE = {
  error: 'The status ready needs 2 approvals by members of the current version; the track has 1',
  code: 'approval_required',
  details: [
    {
      path: '/body/status',
      message: 'The status ready needs 2 approvals by members of the current version; the track has 1',
      status: 'ready',
      required: 2,
      have: 1,
      roles: ['owner', 'admin', 'member'],
      missing: [101],
    },
  ],
};

/**
 * The 409 of a move into a status: `approval_required` (details name what is missing) or another conflict of
 * the operation (`conflict`, without these fields).
 */
const ApprovalRequiredError = Type.Object(
  {
    error: Type.String({ description: 'Short human message' }),
    code: Type.String({
      description: '`approval_required`, or `conflict` for another conflict of the operation',
    }),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          path: Type.String(),
          message: Type.String(),
          status: Type.Optional(Type.String({ description: 'The status that asks for approvals' })),
          required: Type.Optional(Type.Integer({ description: 'Approvals each track needs' })),
          have: Type.Optional(
            Type.Integer({
              description: 'The approvals the track has (for an album: the fewest of its tracks)',
            }),
          ),
          roles: Type.Optional(
            Type.Array(Type.Union(TEAM_ROLES.map((r) => Type.Literal(r))), {
              description: 'Roles (in the team that owns the track) whose approvals count',
            }),
          ),
          missing: Type.Optional(Type.Array(Id, { description: 'The tracks short of the approvals' })),
        }),
      ),
    ),
  },
  { title: 'ApprovalRequiredError', examples: [EXAMPLE] },
);

const responses = new Map<string, { 409: typeof ApprovalRequiredError }>();

/**
 * The documented 409 of an operation that moves tracks or albums into a status; one schema object per
 * description for the process (response serializers are compiled per schema object).
 */
export function approvalRequiredResponse(description: string) {
  let response = responses.get(description);
  if (!response) {
    response = { 409: { ...ApprovalRequiredError, description } };
    responses.set(description, response);
  }
  return response;
}
