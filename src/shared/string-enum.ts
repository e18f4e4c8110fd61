import { Type } from '@sinclair/typebox';

/** A closed set of strings as a JSON-schema `enum`, so a wrong value is answered "must be one of: …". */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
