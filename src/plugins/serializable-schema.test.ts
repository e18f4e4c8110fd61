import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { type TSchema, Type } from '@sinclair/typebox';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Timestamp, Uuid } from '../shared/schemas.ts';
import { serializableSchema } from './serializable-schema.ts';

const compile = (schema: TSchema) =>
  SerializerSelector()(undefined, undefined)({ schema, method: 'GET', url: '/', httpStatus: '200' }) as (
    data: unknown,
  ) => string;

const Row = Type.Object({
  id: Type.Integer(),
  createdBy: Type.Union([Uuid, Type.Null()], { description: 'who' }),
  bpm: Type.Union([Type.Number(), Type.Null()]),
  explicit: Type.Union([Type.Boolean(), Type.Null()]),
  deletedAt: Type.Union([Timestamp, Type.Null()]),
  cover: Type.Union([Type.Object({ url: Type.String() }), Type.Null()]),
  tags: Type.Array(Type.Union([Type.String(), Type.Null()])),
  kind: Type.Union([Type.Literal('a'), Type.Literal('b')]),
  maybe: Type.Union([Type.Literal('x'), Type.Literal('y'), Type.Null()]),
  mixed: Type.Union([Type.Literal('a'), Type.Literal(1)]),
  either: Type.Union([Type.String(), Type.Integer(), Type.Null()]),
});

describe('serializable schema', () => {
  it('writes a nullable single type as a list of types, keeping its own keywords and the union’s', () => {
    const schema = serializableSchema(Row) as unknown as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.properties.createdBy).toMatchObject({
      type: ['string', 'null'],
      format: 'uuid',
      description: 'who',
    });
    expect(schema.properties.createdBy).not.toHaveProperty('anyOf');
    expect(schema.properties.cover).toMatchObject({ type: ['object', 'null'], required: ['url'] });
    expect((schema.properties.tags!.items as object) ?? {}).toMatchObject({ type: ['string', 'null'] });
    // Enumerations of strings are strings.
    expect(schema.properties.kind).toMatchObject({ type: 'string' });
    expect(schema.properties.maybe).toMatchObject({ type: ['string', 'null'] });
    expect(schema.properties.maybe).not.toHaveProperty('anyOf');
    // Unions of other shapes are left to the serializer as they are.
    expect(schema.properties.mixed).toHaveProperty('anyOf');
    expect(schema.properties.either).toHaveProperty('anyOf');
    // The schema it was made from is unchanged (routes and the document keep using it).
    expect(Row.properties.createdBy).toHaveProperty('anyOf');
  });

  it('serializes every row as the union it was written from does', () => {
    const plain = compile(Row);
    const fast = compile(serializableSchema(Row));
    const row = fc.record({
      id: fc.integer(),
      createdBy: fc.option(fc.uuid(), { nil: null }),
      bpm: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
      explicit: fc.option(fc.boolean(), { nil: null }),
      deletedAt: fc.option(fc.date({ noInvalidDate: true }), { nil: null }),
      cover: fc.option(fc.record({ url: fc.string() }), { nil: null }),
      tags: fc.array(fc.option(fc.string(), { nil: null })),
      kind: fc.constantFrom('a', 'b'),
      maybe: fc.constantFrom('x', 'y', null),
      mixed: fc.constantFrom('a', 1),
      either: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    });
    fc.assert(
      fc.property(row, (value) => {
        const written = fast(value);
        expect(written).toBe(plain(value));
        expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});
