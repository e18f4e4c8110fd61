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

/** The fields of an entry as the examples of the area give them (team 7, a sync fee from contact 12). */
const EXAMPLE_INPUT = {
  isIncome: true,
  amount: 1250.5,
  currency: 'EUR',
  occurredOn: '2026-03-14',
  category: 'Sync licensing',
  description: 'Trailer placement, "Night Drive"',
  contactId: 12,
  status: 'confirmed',
};

/** An entry as the examples of the area show it. */
export const EXAMPLE_ENTRY = {
  id: 42,
  teamId: 7,
  ...EXAMPLE_INPUT,
  createdAt: '2026-03-14T09:30:00.000Z',
  updatedAt: '2026-03-14T09:30:00.000Z',
};

const Status = StringEnum(FINANCIAL_STATUSES, {
  description: 'confirmed entries count in the summary; pending, declined and lost are seen in the pipeline',
});

/** A team's income or expense, as every answer shows it. */
export const Entry = Type.Object(
  {
    id: Id,
    teamId: Id,
    isIncome: Type.Boolean({ description: 'true: income; false: expense' }),
    amount: Type.Number({
      description: 'Above 0, at most two decimals (1250.5 is 1250.50); stored exactly (NUMERIC)',
    }),
    currency: Type.String({ description: 'ISO 4217 code: three capital letters (EUR, USD, GBP, ...)' }),
    occurredOn: Type.String({ format: 'date', description: 'YYYY-MM-DD' }),
    category: Nullable(Type.String()),
    description: Nullable(Type.String()),
    contactId: Nullable(Id),
    status: Status,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'FinancialEntry', description: 'A financial entry of a team', examples: [EXAMPLE_ENTRY] },
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
  'contactId to null. amount: above 0 with at most two decimals (more is 400 validation_failed).';

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
  { title: 'FinancialEntryInput', description: defaults, examples: [EXAMPLE_INPUT] },
);

export const CreateEntryBody = Type.Object(
  { teamId: Id, ...EntryInput.properties },
  { title: 'FinancialEntryCreate', description: defaults, examples: [{ teamId: 7, ...EXAMPLE_INPUT }] },
);

export const EntryPatchBody = Type.Partial(Type.Object(fields), {
  minProperties: 1,
  title: 'FinancialEntryUpdate',
  description:
    'Only the fields given change (at least one); null clears category, description or contactId. amount: ' +
    'above 0 with at most two decimals.',
  examples: [{ status: 'pending', amount: 980 }],
});

export const ImportBody = Type.Object(
  {
    teamId: Id,
    entries: Type.Array(EntryInput, {
      minItems: 1,
      maxItems: MAX_IMPORT_ENTRIES,
      description: `1 to ${MAX_IMPORT_ENTRIES} entries, each the create body without teamId`,
    }),
  },
  {
    title: 'FinancialImport',
    examples: [
      {
        teamId: 7,
        entries: [
          EXAMPLE_INPUT,
          {
            isIncome: false,
            amount: 320,
            currency: 'EUR',
            occurredOn: '2026-03-02',
            category: 'Studio hire',
          },
        ],
      },
    ],
  },
);

export const ImportResult = Type.Object(
  {
    imported: Type.Integer({ minimum: 1, description: 'How many entries were created' }),
    ids: Type.Array(Id, { description: 'The ids of the created entries, ascending' }),
  },
  { title: 'FinancialImportResult', examples: [{ imported: 2, ids: [43, 44] }] },
);

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
    currency: Type.String({ description: 'ISO 4217 code' }),
    income: Type.Number({ description: 'Sum of income, two decimals' }),
    expense: Type.Number({ description: 'Sum of expenses, two decimals' }),
    net: Type.Number({ description: 'income - expense (negative when more went out)' }),
    count: Type.Integer({ minimum: 0, description: 'Entries summed' }),
  },
  {
    title: 'FinancialCurrencyTotals',
    description: 'Sums of one currency',
    examples: [{ currency: 'EUR', income: 1250.5, expense: 320, net: 930.5, count: 2 }],
  },
);

const EXAMPLE_TOTALS = { currency: 'EUR', income: 1250.5, expense: 320, net: 930.5, count: 2 };
const TotalsList = Type.Array(CurrencyTotals, { description: 'One row per currency, by code' });

export const Summary = Type.Object(
  {
    teamId: Id,
    from: Nullable(Type.String({ format: 'date', description: 'The from of the query, if any' })),
    to: Nullable(Type.String({ format: 'date', description: 'The to of the query, if any' })),
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
  },
  {
    title: 'FinancialSummary',
    description: "Totals of a team's confirmed entries; currencies are never added together",
    examples: [
      {
        teamId: 7,
        from: '2026-03-01',
        to: '2026-03-31',
        totals: [EXAMPLE_TOTALS],
        months: [{ month: '2026-03', totals: [EXAMPLE_TOTALS] }],
        categories: [
          {
            category: 'Studio hire',
            totals: [{ currency: 'EUR', income: 0, expense: 320, net: -320, count: 1 }],
          },
          {
            category: 'Sync licensing',
            totals: [{ currency: 'EUR', income: 1250.5, expense: 0, net: 1250.5, count: 1 }],
          },
        ],
      },
    ],
  },
);

export const PipelineQuery = Type.Object({
  teamId: Id,
  status: Type.Optional(StringEnum(FINANCIAL_STATUSES, { description: 'Default pending' })),
  ...PageQuery,
});

export const Pipeline = Type.Object(
  {
    status: Status,
    totals: TotalsList,
    items: Type.Array(Entry),
    nextCursor: Type.Union([Type.String(), Type.Null()]),
  },
  {
    title: 'FinancialPipeline',
    description: 'A page of the entries with one status, and the totals of all of them per currency',
    examples: [
      {
        status: 'pending',
        totals: [{ currency: 'EUR', income: 1250.5, expense: 0, net: 1250.5, count: 1 }],
        items: [{ ...EXAMPLE_ENTRY, status: 'pending' }],
        nextCursor: null,
      },
    ],
  },
);

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const ExportQuery = Type.Object({
  teamId: Id,
  format: Type.Optional(StringEnum(EXPORT_FORMATS, { description: 'Default csv' })),
  ...DateRange,
});
