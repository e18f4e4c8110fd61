import { Type } from '@sinclair/typebox';
import { Uuid } from '../../../shared/schemas.ts';

export const ReviewRequestBody = Type.Object({
  reviewerIds: Type.Array(Uuid, {
    minItems: 1,
    maxItems: 50,
    uniqueItems: true,
    description: 'Members of the team that owns the track',
  }),
});

export const ReviewDecisionBody = Type.Object({
  status: Type.Union([Type.Literal('approved'), Type.Literal('changes_requested')]),
});
