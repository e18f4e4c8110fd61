import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atLeastLength, quickLengthLimits, withinLength } from './length-guard.ts';

const codePoints = (text: string) => [...text].length;

// Text of one- and two-unit characters, and lone surrogates (a JSON body may carry them).
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 40 }),
);

describe('length limits counted only when needed', () => {
  it('agree with counting code points', () => {
    fc.assert(
      fc.property(text, fc.nat(60), (value, limit) => {
        expect(withinLength(value, limit)).toBe(codePoints(value) <= limit);
        expect(atLeastLength(value, limit)).toBe(codePoints(value) >= limit);
      }),
    );
  });

  it('answer as Ajv’s own maxLength and minLength do, errors and messages included', () => {
    const quick = quickLengthLimits(new Ajv({ allErrors: true, $data: true }));
    const plain = new Ajv({ allErrors: true, $data: true });
    const outcome = (ajv: Ajv, schema: object, data: unknown) => {
      const validate = ajv.compile(schema);
      return { valid: validate(data), errors: validate.errors ?? null };
    };
    fc.assert(
      fc.property(text, fc.nat(60), fc.nat(60), (value, min, max) => {
        const schema = { type: 'string', minLength: min, maxLength: max };
        expect(outcome(quick, schema, value)).toEqual(outcome(plain, schema, value));
        // A limit read from the data itself ($data).
        const relative = {
          type: 'object',
          properties: { text: { type: 'string', maxLength: { $data: '1/max' } }, max: {} },
        };
        expect(outcome(quick, relative, { text: value, max })).toEqual(
          outcome(plain, relative, { text: value, max }),
        );
      }),
      { numRuns: 300 },
    );
  });
});
