import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { RecordingParams } from '../recordings/recordings.schemas.ts';
import { EXAMPLE, Nullable, OptionalTeamId } from '../sessions.schemas.ts';

export const DEFAULT_MARKER_COLOR = '#f5a623';
/** A week: no recording runs longer. */
export const MAX_POSITION_SECONDS = 7 * 24 * 3600;

export const MarkerParams = Type.Object({ ...RecordingParams.properties, markerId: Id });

const Label = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Position = Type.Number({
  minimum: 0,
  maximum: MAX_POSITION_SECONDS,
  description: 'Seconds from the start of the recording; within its duration when that is known',
});
const Color = Type.String({ maxLength: 7, pattern: '^#[0-9A-Fa-f]{6}$', description: '#rrggbb' });

export const Marker = Type.Object(
  {
    id: Id,
    recordingId: Id,
    label: Type.String(),
    positionSeconds: Type.Number(),
    color: Type.String({ description: '#rrggbb, lower case' }),
    createdBy: Nullable(Uuid),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'SessionMarker',
    description: 'A named point in a recording',
    examples: [
      {
        id: 77,
        recordingId: EXAMPLE.recordingId,
        label: 'Second chorus: double the vocal',
        positionSeconds: 95.25,
        color: '#f5a623',
        createdBy: EXAMPLE.memberId,
        createdAt: '2026-03-14T10:04:10.000Z',
        updatedAt: '2026-03-14T10:04:10.000Z',
      },
    ],
  },
);
export const MarkerPage = Page(Marker);

export const MarkerListQuery = Type.Object({ teamId: OptionalTeamId, ...PageQuery });

export const CreateMarkerBody = Type.Object(
  {
    teamId: OptionalTeamId,
    label: Label,
    positionSeconds: Position,
    color: Type.Optional({ ...Color, description: `#rrggbb; default ${DEFAULT_MARKER_COLOR}` }),
  },
  {
    title: 'SessionMarkerCreate',
    examples: [
      {
        teamId: EXAMPLE.teamId,
        label: 'Second chorus: double the vocal',
        positionSeconds: 95.25,
        color: '#F5A623',
      },
    ],
  },
);

export const MarkerPatchBody = Type.Object(
  {
    teamId: OptionalTeamId,
    label: Type.Optional(Label),
    positionSeconds: Type.Optional(Position),
    color: Type.Optional(Color),
  },
  {
    title: 'SessionMarkerUpdate',
    minProperties: 1,
    description: 'At least one field to change besides teamId',
    examples: [{ teamId: EXAMPLE.teamId, positionSeconds: 96.5, label: 'Second chorus: harmony' }],
  },
);

export const DeleteMarkerBody = Type.Object(
  { teamId: OptionalTeamId },
  { title: 'SessionMarkerDelete', examples: [{ teamId: EXAMPLE.teamId }] },
);

export const MARKER_EXPORT_FORMATS = ['csv', 'audacity', 'reaper'] as const;
export type MarkerExportFormat = (typeof MARKER_EXPORT_FORMATS)[number];

export const MarkerExportQuery = Type.Object({
  teamId: OptionalTeamId,
  format: Type.Optional(StringEnum(MARKER_EXPORT_FORMATS, { description: 'Default csv' })),
});
