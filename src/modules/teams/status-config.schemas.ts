import { Type } from '@sinclair/typebox';

export const MAX_STATUSES = 50;

const StatusId = Type.String({
  maxLength: 40,
  pattern: '^[a-z0-9_]{1,40}$',
  description: 'Stable id items store',
});

const ROLES = ['owner', 'admin', 'member'] as const;

export const StatusRequirement = Type.Object(
  {
    approvals: Type.Integer({
      minimum: 1,
      maximum: 20,
      description: 'Distinct people whose latest review decision on the current version is approved',
    }),
    roles: Type.Optional(
      Type.Array(Type.Union(ROLES.map((r) => Type.Literal(r))), {
        minItems: 1,
        maxItems: 3,
        uniqueItems: true,
        description: 'Roles (in the team that owns the track) whose approvals count; all roles when absent',
      }),
    ),
    autoAdvance: Type.Optional(
      Type.Boolean({
        description:
          'Track statuses only: a track in the status before this one moves here on its own once a review ' +
          'decision completes the requirement',
      }),
    ),
  },
  {
    title: 'TeamStatusRequirement',
    description:
      'Moving a track into the status needs this many approvals; an album needs them on every track on it. ' +
      'Not allowed on the first status (where new items start)',
    examples: [{ approvals: 2, roles: ['owner', 'admin'], autoAdvance: true }],
  },
);

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
    requires: Type.Optional(StatusRequirement),
  },
  { title: 'TeamStatus', examples: [{ id: 'mixing', name: 'Mixing', color: '#7c3aed' }] },
);

const TRACK_STATUSES = [
  { id: 'idea', name: 'Idea' },
  { id: 'recording', name: 'Recording', color: '#f59e0b' },
  { id: 'mixing', name: 'Mixing', color: '#7c3aed' },
  { id: 'released', name: 'Released', color: '#16a34a', requires: { approvals: 2, autoAdvance: true } },
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
