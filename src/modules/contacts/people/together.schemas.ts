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
  {
    title: 'Together',
    description: 'What the caller shares with a person; each area of the service adds one key',
    examples: [
      {
        userId: '0193a5f2-7d2f-7c4b-8a21-4d3e5f6a7b8c',
        name: 'Maya Okafor',
        teams: [{ id: 7, name: 'Luna Vale' }],
        tracks: [{ id: 101, title: 'Night Drive', teamId: 7 }],
        sessions: [
          {
            id: 311,
            teamId: 7,
            title: 'Vocal tracking',
            startsAt: '2026-04-02T10:00:00.000Z',
            endsAt: '2026-04-02T14:00:00.000Z',
            status: 'scheduled',
          },
        ],
        threads: [
          {
            id: '0195b3c4-3b2c-7d4e-9f50-6b7c8d9e0f1a',
            type: 'team',
            name: 'Luna Vale',
            activityAt: '2026-03-14T09:30:00.000Z',
          },
        ],
      },
    ],
  },
);
