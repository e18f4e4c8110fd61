import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';

const Action = Type.Object(
  {
    method: StringEnum(['GET', 'POST', 'DELETE']),
    path: Type.String({ description: 'API path, query included' }),
  },
  {
    title: 'InboxAction',
    description: 'A call that opens or acts on an inbox item',
  },
);

export const InboxItem = Type.Object(
  {
    kind: StringEnum(
      [
        'team_invite',
        'organisation_invitation',
        'review_request',
        'session_invitation',
        'follow_up_due',
        'mention',
      ],
      {
        description:
          'team_invite and organisation_invitation (accept or decline), review_request (decide), session_invitation (respond with ' +
          '`{participantId, accept}`), follow_up_due (delete the task once done), mention (unread: mark the thread read)',
      },
    ),
    id: Type.String({ description: 'Stable for the item: `<kind>:<id of the thing>`' }),
    at: Timestamp,
    teamId: Type.Union([Id, Type.Null()], {
      description: 'The team it comes from; null for a chat mention and an organisation invitation',
    }),
    title: Type.String({
      description: 'Team or organisation name, "track – version", session title, person, or mention author',
    }),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'The ids the actions need' }),
    actions: Type.Record(Type.String(), Action, {
      description: 'What a client calls to open or act on the item',
    }),
  },
  {
    title: 'InboxItem',
    description: 'Something that waits for the caller’s action',
  },
);

const Count = Type.Integer({ minimum: 0 });

const InboxCounts = Type.Object(
  {
    invites: Count,
    organisationInvitations: Count,
    reviews: Count,
    sessions: Count,
    followUps: Count,
    mentions: Count,
    total: Count,
  },
  {
    title: 'InboxCounts',
    description: 'How many items of each kind wait (all of them, beyond the 100 listed per kind)',
  },
);

export const Inbox = Type.Object(
  {
    items: Type.Array(InboxItem, {
      description: 'Newest first (follow-ups by due time); at most 100 of each kind',
    }),
    counts: InboxCounts,
  },
  { title: 'Inbox' },
);
