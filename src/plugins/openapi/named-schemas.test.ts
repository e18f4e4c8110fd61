import { describe, expect, it } from 'vitest';
import { hoistNamedSchemas } from './named-schemas.ts';

const track = (extra: Record<string, unknown> = {}) => ({
  title: 'Track',
  type: 'object',
  properties: { id: { type: 'integer' } },
  ...extra,
});
const example = [{ id: 101 }];

/** A document whose first operation answers `whole` and whose second answers a page of `item`. */
const documentOf = (whole: object, item: object) => ({
  paths: {
    '/tracks/{id}': { get: { responses: { 200: { content: { 'application/json': { schema: whole } } } } } },
    '/tracks': {
      get: {
        responses: {
          200: {
            content: {
              'application/json': {
                schema: { type: 'object', properties: { items: { type: 'array', items: item } } },
              },
            },
          },
        },
      },
    },
  },
  components: { schemas: {} },
});

describe('named schemas', () => {
  it('takes a schema whose examples moved to its media type as the same component, keeping the examples', () => {
    for (const [whole, item] of [
      [track(), track({ examples: example })],
      [track({ examples: example }), track()],
    ]) {
      const hoisted = hoistNamedSchemas(documentOf(whole!, item!), ['paths']);
      expect(hoisted.components.schemas).toEqual({ Track: track({ examples: example }) });
    }
  });

  it('still refuses two different schemas under one name', () => {
    const other = track({ properties: { id: { type: 'string' } }, examples: example });
    expect(() => hoistNamedSchemas(documentOf(track(), other), ['paths'])).toThrow(
      'Two different schemas are named Track',
    );
  });
});
