import { type TSchema, Type } from '@sinclair/typebox';
import { Id, Uuid } from '../../../shared/schemas.ts';
import { Nullable } from '../contacts.schemas.ts';
import { TOGETHER_PARTS } from './together-parts.ts';

export const TogetherQuery = Type.Object({
  contactId: Type.Optional({ ...Id, description: 'A contact linked to a platform user' }),
  userId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'A user id' })),
  email: Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: "A user's e-mail address" })),
});

/** TOGETHER_PARTS' schemas under their keys, typed. */
function partSchemas<P extends Record<string, { schema: TSchema }>>(
  parts: P,
): { [K in keyof P]: P[K]['schema'] } {
  return Object.fromEntries(Object.entries(parts).map(([key, part]) => [key, part.schema])) as {
    [K in keyof P]: P[K]['schema'];
  };
}

export const Together = Type.Object(
  {
    userId: Uuid,
    name: Nullable(Type.String()),
    teams: Type.Array(Type.Object({ id: Id, name: Type.String() }), {
      description: 'Teams both are members of, by name (at most 200)',
    }),
    ...partSchemas(TOGETHER_PARTS),
  },
  { description: 'What the caller shares with a person; each area of the service adds one key' },
);
