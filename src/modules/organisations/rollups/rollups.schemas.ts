import { Type } from '@sinclair/typebox';
import { FOLLOW_UP_STATUSES, type LeadStatus } from '../../../db/schema/index.ts';
import { CountedPage, CountQuery, Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';

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

export const FollowUp = Type.Object({
  id: Uuid,
  teamId: Id,
  assignee: Uuid,
  person: Type.String(),
  network: NullableText,
  contactId: Nullable(Id),
  dueAt: Nullable(Timestamp),
  note: NullableText,
  status: StringEnum(FOLLOW_UP_STATUSES),
  completedAt: Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export const FollowUpPage = CountedPage(FollowUp);

export const ProspectsQuery = Type.Object({
  status: Type.Optional(StringEnum(OPEN_LEAD_STATUSES, { description: 'Only contacts at this stage' })),
  ...PageQuery,
});

export const Prospect = Type.Object({
  id: Id,
  teamId: Id,
  name: Type.String(),
  email: NullableText,
  company: NullableText,
  role: NullableText,
  leadStatus: StringEnum(OPEN_LEAD_STATUSES),
  updatedAt: Timestamp,
});
export const ProspectPage = Type.Object({
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
});

const actionFields = {
  priority: Type.Integer({ minimum: 1, maximum: 6, description: '1 is the most pressing' }),
  teamId: Id,
  at: Timestamp,
  title: Type.String({ description: 'A one-line summary to show' }),
};

export const NextAction = Type.Union([
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
]);
export const NextActionList = Page(NextAction);
export const NextActionsQuery = Type.Object(PageQuery);
