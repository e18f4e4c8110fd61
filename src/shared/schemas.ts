import { type TSchema, Type } from '@sinclair/typebox';
import { StringEnum } from './string-enum.ts';

/** A positive integer id in a path or a body (teams, tracks, versions, albums, ...). */
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Positive integer id' });
// Every string a request pattern or format checks has a maxLength: validation skips the check on longer text.
export const Uuid = Type.String({ format: 'uuid', maxLength: 45 });
/** ISO-8601 UTC timestamp on the wire; a Date in handlers (the serializer writes it as ISO). */
export const Timestamp = Type.Unsafe<Date>({
  type: 'string',
  format: 'date-time',
  description: 'ISO-8601 UTC timestamp',
});
/** A timestamp a client sends: validated as ISO-8601 and given to handlers as text. */
export const TimestampInput = Type.String({
  format: 'date-time',
  maxLength: 64,
  description: 'ISO-8601 timestamp',
});
/** A calendar date a client sends. */
export const CalendarDate = Type.String({ format: 'date', maxLength: 10, description: 'YYYY-MM-DD' });
/** A BCP 47 language tag such as en, de-CH or zh-Hant-TW. */
export const LanguageTag = Type.String({
  maxLength: 64,
  pattern: '^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$',
  description: 'BCP 47 tag',
});

/** An http or https URL a client sends (links, ticket pages). */
export const HttpUrl = Type.String({
  maxLength: 2048,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]\\S*$',
  description: 'An http or https URL without spaces, at most 2,048 characters',
});

/** Schema options for a body that takes exactly one of two fields (both or neither is 400). */
export const exactlyOneOf = (a: string, b: string) => ({
  oneOf: [{ required: [a] }, { required: [b] }],
  description: `Exactly one of ${a} and ${b} (both or neither is 400 validation_failed)`,
});

/** A password a person chooses: the policy every route that sets one applies. */
export const NewPassword = Type.String({
  minLength: 8,
  maxLength: 256,
  description:
    'Password policy: 8 to 256 characters (Unicode code points); any characters (a passphrase with spaces is best) ' +
    'except NUL and lone surrogates. Stored only as an argon2id hash.',
});

export const IdParams = Type.Object({ id: Id });

export const ErrorResponse = Type.Object(
  {
    error: Type.String({ description: 'Short human message' }),
    code: Type.Optional(Type.String({ description: 'Stable snake_case code' })),
    details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    requestId: Type.Optional(Type.String()),
  },
  { $id: 'ErrorResponse', title: 'Error' },
);

export const ErrorRef = Type.Ref(ErrorResponse);

const errorResponses = new Map<string, ReturnType<typeof describedError>>();
const describedError = (description: string) => ({ ...ErrorRef, description });

/**
 * An error answer of an operation, documented with `description`: one object per description for the
 * process, since response serializers are compiled and kept per schema object (tests build many apps).
 */
export function errorResponse(description: string) {
  let response = errorResponses.get(description);
  if (!response) {
    response = describedError(description);
    errorResponses.set(description, response);
  }
  return response;
}

/** The largest page a list answers. */
export const MAX_PAGE_SIZE = 200;

/** Query parameters of every list endpoint. */
export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 50 })),
  cursor: Type.Optional(
    Type.String({
      maxLength: 512,
      description: 'Opaque cursor: nextCursor of the previous page of the same list (same path and filters)',
    }),
  ),
};

/** `{items, nextCursor}` of a list endpoint; named `<Item>Page` in the API document when its item is named. */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object(
    {
      items: Type.Array(item),
      nextCursor: Type.Union([Type.String(), Type.Null()], {
        description: 'Cursor of the next page (pass it as `cursor`), null on the last page',
      }),
    },
    typeof item.title === 'string' ? { title: `${item.title}Page` } : {},
  );

/** `?count=true` of the lists dashboards count: the answer then adds `total` (see `withTotal`). */
export const CountQuery = {
  count: Type.Optional(
    StringEnum(['true', 'false'], {
      description:
        'true: the answer adds `total`, how many items the whole list holds with these filters (not only ' +
        'this page). It costs one more query, so ask on the first page only, or when the number may have changed',
    }),
  ),
};

/** The `total` of a counted list: present only when the request asked `count=true`. */
export const Total = Type.Optional(
  Type.Integer({
    minimum: 0,
    description: 'How many items the whole list holds with these filters; only with count=true',
  }),
);

/**
 * `{items, nextCursor, total?}` of a list endpoint that takes `count`; named `<Item>Page` in the API document
 * like a plain page of the same item (a list of one item is counted everywhere or nowhere).
 */
export const CountedPage = <T extends TSchema>(item: T) =>
  Type.Composite(
    [Page(item), Type.Object({ total: Total })],
    typeof item.title === 'string' ? { title: `${item.title}Page` } : {},
  );

export const NoContent = Type.Null({ description: 'No content' });

/** The body of an action that takes no fields: `{}`, or no body at all. */
export const EmptyBody = Type.Object(
  {},
  { title: 'EmptyBody', description: 'No fields; the body may be left out entirely' },
);
