import { Type } from '@sinclair/typebox';
import { CHAT_MENTION_KINDS } from '../../../db/schema/index.ts';
import { Id, Page, PageQuery, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { CHAT_EXAMPLE } from '../chat.schemas.ts';

const CARD_EXAMPLES = [
  { kind: 'user', id: CHAT_EXAMPLE.memberId, label: 'Maya Reyes', detail: 'maya@example.com' },
  { kind: 'track', id: '101', label: 'Night Drive', detail: 'Luna Vale' },
  { kind: 'album', id: '12', label: 'Night Drives', detail: 'Luna Vale' },
] as const;

export const MentionCard = Type.Object(
  {
    kind: StringEnum(CHAT_MENTION_KINDS),
    id: Type.String({ description: 'A user UUID, or the integer id of a track, album or contact, as text' }),
    label: Type.String({ description: 'What the mention shows: a name or a title' }),
    detail: Type.Union([Type.String(), Type.Null()], {
      description:
        'A second line: the e-mail of a person, the artist of a track or album, the company of a contact',
    }),
  },
  {
    title: 'ChatMentionCard',
    description: 'Something of the team a message can mention: write it as @[label](kind:id)',
    examples: [CARD_EXAMPLES[1]],
  },
);

export const MentionSearchQuery = Type.Object({
  teamId: Id,
  q: Type.Optional(
    Type.String({ maxLength: 100, description: 'Prefix of a name, title or e-mail (any case); empty: all' }),
  ),
  ...PageQuery,
});
export const MentionSearchResult = Type.Object(
  {
    items: Type.Array(MentionCard),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'More targets: each kind goes on where this page left it',
    }),
  },
  { title: 'ChatMentionSearchResult', examples: [{ items: CARD_EXAMPLES, nextCursor: null }] },
);

export const MentionContextQuery = Type.Object({
  teamId: Id,
  kind: StringEnum(CHAT_MENTION_KINDS),
  id: Type.String({ minLength: 1, maxLength: 64, description: 'A user UUID, or an integer id' }),
});

export const Person = Type.Object(
  {
    id: Uuid,
    name: Type.Union([Type.String(), Type.Null()]),
    email: Type.String(),
  },
  {
    title: 'ChatPerson',
    description: 'A member of the team the caller can write to',
    examples: [{ id: CHAT_EXAMPLE.memberId, name: 'Maya Reyes', email: 'maya@example.com' }],
  },
);
export const PeoplePage = Page(Person);
export const PeopleQuery = Type.Object({ teamId: Id, ...PageQuery });
