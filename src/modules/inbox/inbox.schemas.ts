import { Type } from '@sinclair/typebox';
import { CountQuery, Id, PageQuery, Timestamp, Total } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';

const Action = Type.Object(
  {
    method: StringEnum(['GET', 'POST', 'DELETE']),
    path: Type.String({ description: 'API path, query included' }),
  },
  {
    title: 'InboxAction',
    description: 'A call that opens or acts on an inbox item',
    examples: [{ method: 'POST', path: '/api/v1/sessions/42/respond' }],
  },
);

const ITEM_EXAMPLE = {
  kind: 'session_invitation',
  id: 'session_invitation:301',
  at: '2026-03-02T16:45:00.000Z',
  teamId: 7,
  title: 'Night Drive – lead vocals',
  data: {
    sessionId: 42,
    participantId: 301,
    startsAt: '2026-03-14T09:30:00.000Z',
    endsAt: '2026-03-14T13:30:00.000Z',
    invitedBy: '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b',
  },
  actions: {
    open: { method: 'GET', path: '/api/v1/sessions/42' },
    respond: { method: 'POST', path: '/api/v1/sessions/42/respond' },
  },
};

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
    examples: [ITEM_EXAMPLE],
  },
);

const Count = Type.Integer({ minimum: 0 });

export const InboxQuery = Type.Object({ ...PageQuery, ...CountQuery });

const COUNTS_EXAMPLE = {
  invites: 0,
  organisationInvitations: 0,
  reviews: 0,
  sessions: 1,
  followUps: 0,
  mentions: 0,
  total: 1,
};

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
    description: 'How many items of each kind wait in the whole inbox (the same on every page)',
    examples: [COUNTS_EXAMPLE],
  },
);

export const Inbox = Type.Object(
  {
    items: Type.Array(InboxItem, {
      description: 'Newest first (follow-ups by due time), at most `limit`',
    }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'The next page: pass it as cursor' }),
    total: Total,
    counts: InboxCounts,
  },
  { title: 'Inbox', examples: [{ items: [ITEM_EXAMPLE], nextCursor: null, counts: COUNTS_EXAMPLE }] },
);
