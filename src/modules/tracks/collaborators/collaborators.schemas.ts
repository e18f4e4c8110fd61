import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { EXAMPLE_REVIEWER_ID } from '../versions/versions.schemas.ts';

const PRODUCER_EXAMPLE = {
  id: 21,
  trackId: 101,
  name: 'Maya Ortiz',
  userId: EXAMPLE_REVIEWER_ID,
  email: null,
  roles: ['producer', 'mixing engineer'],
  createdAt: '2026-03-14T09:30:00.000Z',
};
const WRITER_EXAMPLE = {
  id: 22,
  trackId: 101,
  name: 'Jonas Berg',
  userId: null,
  email: 'jonas@example.com',
  roles: ['songwriter'],
  createdAt: '2026-03-14T09:41:00.000Z',
};

export const CollaboratorParams = Type.Object({ id: Id, collaboratorId: Id });

const Role = Type.String({
  minLength: 1,
  maxLength: 50,
  pattern: '\\S',
  description: 'e.g. producer, songwriter, vocals, mixing engineer',
});

export const Collaborator = Type.Object(
  {
    id: Id,
    trackId: Id,
    name: Type.String(),
    userId: Type.Union([Uuid, Type.Null()], { description: 'The team member; null for an outside person' }),
    email: Type.Union([Type.String(), Type.Null()]),
    roles: Type.Array(Type.String(), { description: 'Lower-cased, each once' }),
    createdAt: Timestamp,
  },
  { title: 'TrackCollaborator', examples: [PRODUCER_EXAMPLE, WRITER_EXAMPLE] },
);

export const CollaboratorPage = Page(Collaborator);
export const CollaboratorListQuery = Type.Object(PageQuery);

export const CreateCollaboratorBody = Type.Object(
  {
    roles: Type.Array(Role, { minItems: 1, maxItems: 20, uniqueItems: true }),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: '\\S',
        description: 'Needed unless userId is given',
      }),
    ),
    userId: Type.Optional(Type.Union([Uuid], { description: 'A member of the team that owns the track' })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
  },
  {
    title: 'TrackCollaboratorCreate',
    description:
      'A team member by userId (named after their account unless name is given), or a named person',
    examples: [
      { userId: EXAMPLE_REVIEWER_ID, roles: ['producer', 'mixing engineer'] },
      { name: 'Jonas Berg', email: 'jonas@example.com', roles: ['songwriter'] },
    ],
  },
);

export const CollaboratorGroups = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        { role: Type.String(), collaborators: Type.Array(Collaborator) },
        {
          title: 'TrackCollaboratorGroup',
          examples: [{ role: 'songwriter', collaborators: [WRITER_EXAMPLE] }],
        },
      ),
      { description: 'One group per role, alphabetically; a collaborator with several roles is in each' },
    ),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pages are groups (limit counts roles); a collaborator with several roles shows in each',
    }),
  },
  {
    title: 'TrackCollaboratorGroups',
    examples: [
      {
        items: [
          { role: 'mixing engineer', collaborators: [PRODUCER_EXAMPLE] },
          { role: 'producer', collaborators: [PRODUCER_EXAMPLE] },
          { role: 'songwriter', collaborators: [WRITER_EXAMPLE] },
        ],
        nextCursor: null,
      },
    ],
  },
);
