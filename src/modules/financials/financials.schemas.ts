import { type TSchema, Type } from '@sinclair/typebox';
import { FINANCIAL_STATUSES } from '../../db/schema/index.ts';
import { CalendarDate, CountedPage, CountQuery, Id, PageQuery, Timestamp } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';
import { Amount } from './amounts.ts';

export const MAX_IMPORT_ENTRIES = 5000;

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const Currency = Type.String({
  minLength: 3,
  maxLength: 3,
  pattern: '^[A-Z]{3}$',
  description: 'ISO 4217 code: three capital letters (EUR, USD, GBP, ...)',
});

const Status = StringEnum(FINANCIAL_STATUSES, {
  description: 'confirmed entries count in the summary; pending, declined and lost are seen in the pipeline',
});

/** A team's income or expense, as every answer shows it. */
export const Entry = Type.Object(
  {
    id: Id,
    teamId: Id,
    isIncome: Type.Boolean({ description: 'true: income; false: expense' }),
    amount: Type.Number({ description: 'Above 0, two decimals; stored exactly (NUMERIC)' }),
    currency: Type.String({ description: 'ISO 4217 code' }),
    occurredOn: Type.String({ format: 'date', description: 'YYYY-MM-DD' }),
    category: Nullable(Type.String()),
    description: Nullable(Type.String()),
    contactId: Nullable(Id),
    status: Status,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { description: 'A financial entry of a team' },
);

/** The fields a client writes on an entry (create, import rows, patch). */
const fields = {
  isIncome: Type.Boolean({ description: 'true: income; false: expense' }),
  amount: Amount,
  currency: Currency,
  occurredOn: CalendarDate,
  category: Nullable(Type.String({ minLength: 1, maxLength: 100 })),
  description: Nullable(Type.String({ maxLength: 2000 })),
  contactId: Nullable({
    ...Id,
    description: "A contact of the team (another team's or a missing contact is 400 validation_failed)",
  }),
  status: Status,
};

const defaults =
  'currency defaults to EUR, occurredOn to today (UTC), status to confirmed; category, description and ' +
  'contactId to null.';

/** One entry of a create body or of an import, without its team. */
export const EntryInput = Type.Object(
  {
    isIncome: fields.isIncome,
    amount: fields.amount,
    ...Type.Partial(
      Type.Object({
        currency: fields.currency,
        occurredOn: fields.occurredOn,
        category: fields.category,
        description: fields.description,
        contactId: fields.contactId,
        status: fields.status,
      }),
    ).properties,
  },
  { description: defaults },
);

export const CreateEntryBody = Type.Object(
  { teamId: Id, ...EntryInput.properties },
  { description: defaults },
);

export const EntryPatchBody = Type.Partial(Type.Object(fields), {
  minProperties: 1,
  description: 'Only the fields given change; null clears category, description or contactId',
});

export const ImportBody = Type.Object({
  teamId: Id,
  entries: Type.Array(EntryInput, {
    minItems: 1,
    maxItems: MAX_IMPORT_ENTRIES,
    description: `1 to ${MAX_IMPORT_ENTRIES} entries, each the create body without teamId`,
  }),
});

export const ImportResult = Type.Object({
  imported: Type.Integer({ minimum: 1, description: 'How many entries were created' }),
  ids: Type.Array(Id, { description: 'The ids of the created entries, ascending' }),
});

const DateRange = {
  from: Type.Optional({ ...CalendarDate, description: 'Only entries that occurred on this day or later' }),
  to: Type.Optional({ ...CalendarDate, description: 'Only entries that occurred on this day or earlier' }),
};

export const ENTRY_TYPES = ['income', 'expense'] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

export const ListQuery = Type.Object({
  teamId: Id,
  ...DateRange,
  type: Type.Optional(StringEnum(ENTRY_TYPES)),
  ...PageQuery,
  ...CountQuery,
});

export const EntryPage = CountedPage(Entry);

export const SummaryQuery = Type.Object({ teamId: Id, ...DateRange });

export const CurrencyTotals = Type.Object(
  {
    currency: Type.String(),
    income: Type.Number({ description: 'Sum of income, two decimals' }),
    expense: Type.Number({ description: 'Sum of expenses, two decimals' }),
    net: Type.Number({ description: 'income - expense (negative when more went out)' }),
    count: Type.Integer({ minimum: 0, description: 'Entries summed' }),
  },
  { description: 'Sums of one currency' },
);
const TotalsList = Type.Array(CurrencyTotals, { description: 'One row per currency, by code' });

export const Summary = Type.Object({
  teamId: Id,
  from: Nullable(Type.String({ format: 'date' })),
  to: Nullable(Type.String({ format: 'date' })),
  totals: TotalsList,
  months: Type.Array(Type.Object({ month: Type.String({ description: 'YYYY-MM' }), totals: TotalsList }), {
    description: 'Months with at least one confirmed entry, oldest first',
  }),
  categories: Type.Array(
    Type.Object({
      category: Nullable(Type.String({ description: 'null: entries without a category' })),
      totals: TotalsList,
    }),
    { description: 'By category name; entries without a category last' },
  ),
});

export const PipelineQuery = Type.Object({
  teamId: Id,
  status: Type.Optional(StringEnum(FINANCIAL_STATUSES, { description: 'Default pending' })),
  ...PageQuery,
});

export const Pipeline = Type.Object({
  status: Status,
  totals: TotalsList,
  items: Type.Array(Entry),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const ExportQuery = Type.Object({
  teamId: Id,
  format: Type.Optional(StringEnum(EXPORT_FORMATS, { description: 'Default csv' })),
  ...DateRange,
});
