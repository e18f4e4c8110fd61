import { Type } from '@sinclair/typebox';
import { withOlderNames } from '../../../shared/older-names.ts';
import { Id, Uuid } from '../../../shared/schemas.ts';
import { Email, Nullable } from '../contacts.schemas.ts';

export const MAX_LOOKUP_EMAILS = 100;

export const PlatformUsersBody = withOlderNames(
  Type.Object(
    {
      teamId: Id,
      emails: Type.Array(Email, {
        minItems: 1,
        maxItems: MAX_LOOKUP_EMAILS,
        description: '1 to 100 addresses',
      }),
    },
    {
      title: 'PlatformUserLookup',
      examples: [{ teamId: 7, emails: ['maya@okafor.example', 'press@nightdrives.example'] }],
    },
  ),
  { team_id: 'teamId' },
);

export const PlatformUsersAnswer = Type.Object(
  {
    results: Type.Array(
      Type.Object({
        email: Type.String({ description: 'As sent' }),
        isPlatformUser: Type.Boolean({
          description:
            'true for a user who shares a team with the caller (for an API key: with its team) or lets others ' +
            'find them; false otherwise, whether or not the address has an account',
        }),
        userId: Nullable(Uuid),
        name: Nullable(Type.String()),
      }),
      { description: 'One per address sent, in the same order' },
    ),
  },
  {
    title: 'PlatformUserLookupResult',
    examples: [
      {
        results: [
          {
            email: 'maya@okafor.example',
            isPlatformUser: true,
            userId: '0193a5f2-7d2f-7c4b-8a21-4d3e5f6a7b8c',
            name: 'Maya Okafor',
          },
          { email: 'press@nightdrives.example', isPlatformUser: false, userId: null, name: null },
        ],
      },
    ],
  },
);
