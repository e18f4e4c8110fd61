import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';

export const CollaboratorParams = Type.Object({ id: Id, collaboratorId: Id });

const Role = Type.String({
  minLength: 1,
  maxLength: 50,
  pattern: '\\S',
  description: 'e.g. producer, songwriter, vocals, mixing engineer',
});

export const Collaborator = Type.Object({
  id: Id,
  trackId: Id,
  name: Type.String(),
  userId: Type.Union([Uuid, Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  roles: Type.Array(Type.String()),
  createdAt: Timestamp,
});

export const CollaboratorPage = Page(Collaborator);
export const CollaboratorListQuery = Type.Object(PageQuery);

export const CreateCollaboratorBody = Type.Object({
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
});

export const CollaboratorGroups = Type.Object({
  items: Type.Array(Type.Object({ role: Type.String(), collaborators: Type.Array(Collaborator) }), {
    description: 'One group per role, alphabetically; a collaborator with several roles is in each',
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pages are groups (limit counts roles); a collaborator with several roles shows in each',
  }),
});
