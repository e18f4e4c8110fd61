import type { Ajv, SchemaValidateFunction } from 'ajv';
import { isDecimalMultiple } from '../shared/decimals.ts';

/**
 * `multipleOf` decided exactly on the decimals the numbers stand for. Ajv's own check divides in binary
 * floating point and allows for a rounding error: with a tolerance it takes 1e-300 as a multiple of 0.01
 * (stored as 0), without one it refuses 120.29.
 */
export function withDecimalMultiples(ajv: Ajv): Ajv {
  ajv.removeKeyword('multipleOf');
  ajv.addKeyword({
    keyword: 'multipleOf',
    type: 'number',
    schemaType: 'number',
    errors: true,
    compile: (step: number) => {
      const validate: SchemaValidateFunction = (value: number) => {
        if (isDecimalMultiple(value, step)) return true;
        validate.errors = [
          { keyword: 'multipleOf', message: `must be a multiple of ${step}`, params: { multipleOf: step } },
        ];
        return false;
      };
      return validate;
    },
  });
  return ajv;
}
