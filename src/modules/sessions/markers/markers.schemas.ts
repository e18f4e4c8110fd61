import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { RecordingParams } from '../recordings/recordings.schemas.ts';
import { Nullable } from '../sessions.schemas.ts';

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
  },
);
export const MarkerPage = Page(Marker);

export const MarkerListQuery = Type.Object({ teamId: Id, ...PageQuery });

export const CreateMarkerBody = Type.Object(
  {
    teamId: Id,
    label: Label,
    positionSeconds: Position,
    color: Type.Optional({ ...Color, description: `#rrggbb; default ${DEFAULT_MARKER_COLOR}` }),
  },
  {
    title: 'SessionMarkerCreate',
  },
);

export const MarkerPatchBody = Type.Object(
  {
    teamId: Id,
    label: Type.Optional(Label),
    positionSeconds: Type.Optional(Position),
    color: Type.Optional(Color),
  },
  {
    title: 'SessionMarkerUpdate',
    minProperties: 2,
    description: 'teamId and at least one field to change',
  },
);

export const DeleteMarkerBody = Type.Object({ teamId: Id }, { title: 'SessionMarkerDelete' });

export const MARKER_EXPORT_FORMATS = ['csv', 'audacity', 'reaper'] as const;
export type MarkerExportFormat = (typeof MARKER_EXPORT_FORMATS)[number];

export const MarkerExportQuery = Type.Object({
  teamId: Id,
  format: Type.Optional(StringEnum(MARKER_EXPORT_FORMATS, { description: 'Default csv' })),
});
