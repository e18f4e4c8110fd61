import { Type } from '@sinclair/typebox';
import { Timestamp, Uuid } from '../../../shared/schemas.ts';
import { EXAMPLE, Nullable, OptionalTeamId } from '../sessions.schemas.ts';

/** The most a canvas document may weigh, as UTF-8 JSON. */
export const MAX_CANVAS_BYTES = 256 * 1024;

const Content = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  description: `Any JSON object, at most ${MAX_CANVAS_BYTES / 1024} KiB as UTF-8 JSON`,
});

export const Canvas = Type.Object(
  {
    version: Type.Integer({ minimum: 0, description: 'Counts the writes; 0 before the first' }),
    content: Content,
    updatedAt: Nullable(Timestamp),
    updatedBy: Nullable(Uuid),
  },
  {
    title: 'SessionCanvas',
    description: "The session's shared document; before any write: version 0, content {}",
    examples: [
      {
        version: 3,
        content: {
          lanes: [
            { name: 'Vocals', notes: ['Luna Vale: lead', 'double the second chorus'] },
            { name: 'Drums', notes: ['tighter hi-hat in the bridge'] },
          ],
        },
        updatedAt: '2026-03-14T10:12:00.000Z',
        updatedBy: EXAMPLE.memberId,
      },
    ],
  },
);

export const PutCanvasBody = Type.Object(
  { teamId: OptionalTeamId, content: Content },
  {
    title: 'SessionCanvasUpdate',
    examples: [
      {
        teamId: EXAMPLE.teamId,
        content: {
          lanes: [
            { name: 'Vocals', notes: ['Luna Vale: lead', 'double the second chorus'] },
            { name: 'Drums', notes: ['tighter hi-hat in the bridge'] },
          ],
        },
      },
    ],
  },
);

/**
 * Only If-Match is read here; every other header passes as it would without this schema. If-Match is needed
 * (428 without it), yet optional here: a required header would be answered 400 by validation instead.
 */
export const IfMatchHeaders = Type.Object(
  {
    'if-match': Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'Required (428 precondition_required without it): the version the write is based on, as GET ' +
          'answers it (`3`; `"3"` is taken too)',
        examples: ['"3"'],
      }),
    ),
  },
  { additionalProperties: true },
);
