import { Type } from '@sinclair/typebox';
import { FOLLOW_UP_STATUSES, type LeadStatus } from '../../../db/schema/index.ts';
import { CountedPage, CountQuery, Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { EXAMPLE_OTHER_USER, EXAMPLE_TIME, EXAMPLE_USER } from '../organisations.schemas.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const NullableText = Type.Union([Type.String(), Type.Null()]);

/** The lead statuses of contacts still in the pipeline (not won or lost). */
export const OPEN_LEAD_STATUSES = [
  'new',
  'contacted',
  'qualified',
  'negotiating',
] as const satisfies readonly LeadStatus[];
export type OpenLeadStatus = (typeof OPEN_LEAD_STATUSES)[number];

export const FollowUpsQuery = Type.Object({
  status: Type.Optional(
    StringEnum(FOLLOW_UP_STATUSES, { description: 'open (the default), done or cancelled' }),
  ),
  assignee: Type.Optional(
    Type.String({ format: 'uuid', maxLength: 45, description: 'Only tasks of this user' }),
  ),
  dueBefore: Type.Optional(
    Type.String({ format: 'date-time', maxLength: 64, description: 'Only tasks due before this instant' }),
  ),
  ...PageQuery,
  ...CountQuery,
});

const EXAMPLE_TASK = '0195b3c4-2a1b-7c3d-8e4f-5a6b7c8d9e0f';

export const FollowUp = Type.Object(
  {
    id: Uuid,
    teamId: Id,
    assignee: { ...Uuid, description: 'The user the task is for' },
    person: Type.String({ description: 'Whom to follow up with' }),
    network: Type.Union([Type.String(), Type.Null()], {
      description: 'Where to reach them (instagram, email, ...)',
    }),
    contactId: Nullable(Id),
    dueAt: Nullable(Timestamp),
    note: NullableText,
    status: StringEnum(FOLLOW_UP_STATUSES, { description: 'open | done | cancelled' }),
    completedAt: Nullable(Timestamp),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'OrganisationFollowUp',
    description: "A follow-up task the assistant bot took from a team member's chat message",
    examples: [
      {
        id: EXAMPLE_TASK,
        teamId: 7,
        assignee: EXAMPLE_USER,
        person: 'Maya',
        network: 'instagram',
        contactId: 12,
        dueAt: '2026-03-20T09:00:00.000Z',
        note: 'Send the Night Drive stems',
        status: 'open',
        completedAt: null,
        createdAt: EXAMPLE_TIME,
        updatedAt: EXAMPLE_TIME,
      },
    ],
  },
);
export const FollowUpPage = CountedPage(FollowUp);

export const ProspectsQuery = Type.Object({
  status: Type.Optional(StringEnum(OPEN_LEAD_STATUSES, { description: 'Only contacts at this stage' })),
  ...PageQuery,
});

const EXAMPLE_PROSPECT = {
  id: 12,
  teamId: 7,
  name: 'Maya Okafor',
  email: 'maya@okafor.example',
  company: 'Okafor Sync',
  role: 'Music supervisor',
  leadStatus: 'negotiating',
  updatedAt: EXAMPLE_TIME,
};

export const Prospect = Type.Object(
  {
    id: Id,
    teamId: Id,
    name: Type.String(),
    email: NullableText,
    company: NullableText,
    role: NullableText,
    leadStatus: StringEnum(OPEN_LEAD_STATUSES, { description: 'new | contacted | qualified | negotiating' }),
    updatedAt: Timestamp,
  },
  {
    title: 'Prospect',
    description: 'A contact still in the pipeline (lead status not won or lost)',
    examples: [EXAMPLE_PROSPECT],
  },
);
export const ProspectPage = Type.Object(
  {
    items: Type.Array(Prospect),
    nextCursor: Type.Union([Type.String(), Type.Null()]),
    counts: Type.Object(
      {
        new: Type.Integer(),
        contacted: Type.Integer(),
        qualified: Type.Integer(),
        negotiating: Type.Integer(),
      },
      { description: 'Contacts at each open stage, whatever the page and status filter' },
    ),
  },
  {
    title: 'ProspectPage',
    examples: [
      {
        items: [EXAMPLE_PROSPECT],
        nextCursor: null,
        counts: { new: 4, contacted: 2, qualified: 1, negotiating: 1 },
      },
    ],
  },
);

const actionFields = {
  priority: Type.Integer({ minimum: 1, maximum: 6, description: '1 is the most pressing' }),
  teamId: Id,
  at: Timestamp,
  title: Type.String({ description: 'A one-line summary to show' }),
};

export const NextAction = Type.Union(
  [
    Type.Object({
      kind: Type.Literal('follow_up'),
      reason: StringEnum(['overdue', 'due_soon'] as const),
      ...actionFields,
      followUp: Type.Object({ id: Uuid, assignee: Uuid, person: Type.String(), network: NullableText }),
    }),
    Type.Object({
      kind: Type.Literal('lead'),
      reason: Type.Literal('stale'),
      ...actionFields,
      contact: Type.Object({
        id: Id,
        name: Type.String(),
        leadStatus: StringEnum(['qualified', 'negotiating'] as const),
      }),
    }),
    Type.Object({
      kind: Type.Literal('deal'),
      reason: StringEnum(['overdue', 'upcoming'] as const),
      ...actionFields,
      deal: Type.Object({
        id: Id,
        isIncome: Type.Boolean(),
        amount: Type.Number(),
        currency: Type.String(),
        occurredOn: Type.String({ format: 'date' }),
        description: NullableText,
        contactId: Nullable(Id),
      }),
    }),
  ],
  {
    title: 'NextAction',
    description:
      'One thing to do: kind follow_up (a follow-up task), lead (a stale contact) or deal (a pending financial entry)',
    examples: [
      {
        kind: 'follow_up',
        reason: 'overdue',
        priority: 1,
        teamId: 7,
        at: '2026-03-12T09:00:00.000Z',
        title: 'Follow up with Maya on instagram',
        followUp: { id: EXAMPLE_TASK, assignee: EXAMPLE_OTHER_USER, person: 'Maya', network: 'instagram' },
      },
    ],
  },
);
export const NextActionList = Page(NextAction);
export const NextActionsQuery = Type.Object(PageQuery);
