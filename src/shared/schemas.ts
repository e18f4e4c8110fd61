import { type TSchema, Type } from '@sinclair/typebox';

/** A positive integer id in a path or a body (teams, tracks, versions, albums, ...). */
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Positive integer id' });
export const Uuid = Type.String({ format: 'uuid' });
/** ISO-8601 UTC timestamp on the wire; a Date in handlers (the serializer writes it as ISO). */
export const Timestamp = Type.Unsafe<Date>({
  type: 'string',
  format: 'date-time',
  description: 'ISO-8601 UTC timestamp',
});
/** A timestamp a client sends: validated as ISO-8601 and given to handlers as text. */
export const TimestampInput = Type.String({ format: 'date-time', description: 'ISO-8601 timestamp' });

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

/** Query parameters of every list endpoint. */
export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  cursor: Type.Optional(
    Type.String({
      maxLength: 512,
      description: 'Opaque cursor: nextCursor of the previous page of the same list (same path and filters)',
    }),
  ),
};

/** `{items, nextCursor}` of a list endpoint. */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ items: Type.Array(item), nextCursor: Type.Union([Type.String(), Type.Null()]) });

export const NoContent = Type.Null({ description: 'No content' });
