import { Type } from '@sinclair/typebox';

export const MAX_STATUSES = 50;

const StatusId = Type.String({
  maxLength: 40,
  pattern: '^[a-z0-9_]{1,40}$',
  description: 'Stable id items store',
});

export const Status = Type.Object(
  {
    id: StatusId,
    name: Type.String({ minLength: 1, maxLength: 60 }),
    color: Type.Optional(
      Type.String({
        maxLength: 7,
        pattern: '^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$',
        description: 'CSS hex colour',
      }),
    ),
  },
  { title: 'TeamStatus', examples: [{ id: 'mixing', name: 'Mixing', color: '#7c3aed' }] },
);

const TRACK_STATUSES = [
  { id: 'idea', name: 'Idea' },
  { id: 'recording', name: 'Recording', color: '#f59e0b' },
  { id: 'mixing', name: 'Mixing', color: '#7c3aed' },
  { id: 'released', name: 'Released', color: '#16a34a' },
];
const ALBUM_STATUSES = [
  { id: 'planning', name: 'Planning' },
  { id: 'in_production', name: 'In production' },
  { id: 'released', name: 'Released' },
];

export const StatusConfig = Type.Object(
  {
    tracks: Type.Array(Status, { description: 'The first status is where new tracks start' }),
    albums: Type.Array(Status, { description: 'The first status is where new albums start' }),
  },
  { title: 'TeamStatusConfig', examples: [{ tracks: TRACK_STATUSES, albums: ALBUM_STATUSES }] },
);

const StatusList = Type.Array(Status, {
  minItems: 1,
  maxItems: MAX_STATUSES,
  description: 'Replaces the whole list; ids unique',
});

const Moves = Type.Record(Type.String({ pattern: '^[a-z0-9_]{1,40}$' }), StatusId, {
  additionalProperties: false,
  description: 'removed status id → status id (of the new list) its items move to',
});

export const StatusConfigPatchBody = Type.Object(
  {
    patch: Type.Object(
      {
        tracks: Type.Optional(StatusList),
        albums: Type.Optional(StatusList),
        moves: Type.Optional(Type.Object({ tracks: Type.Optional(Moves), albums: Type.Optional(Moves) })),
      },
      { description: 'Lists given replace the current ones; lists not given stay' },
    ),
  },
  {
    title: 'TeamStatusConfigUpdate',
    examples: [
      {
        patch: {
          tracks: TRACK_STATUSES,
          moves: { tracks: { writing: 'idea', mastering: 'mixing', ready: 'mixing' } },
        },
      },
    ],
  },
);
