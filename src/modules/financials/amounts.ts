import { Type } from '@sinclair/typebox';
import { isDecimalMultiple } from '../../shared/decimals.ts';

/** The largest amount NUMERIC(14,2) holds; anything larger is refused before it reaches the database. */
export const MAX_AMOUNT = 999_999_999_999.99;

/**
 * A money amount as clients send it: a JSON number above 0 with at most two decimals. JSON Schema's
 * `multipleOf: 0.01` cannot say "two decimals" (0.29 / 0.01 is 28.999999999999996 in binary floating point),
 * so the decimals are checked by `amountProblems` beside the schema's own checks.
 */
export const Amount = Type.Number({
  exclusiveMinimum: 0,
  maximum: MAX_AMOUNT,
  description: `Above 0, at most two decimals (0.001 and 1e-7 are refused), at most ${MAX_AMOUNT}`,
});

/**
 * Whether a number is exactly a value with at most two decimals (as exactly as a JSON number can say it):
 * the same rule as a schema's `multipleOf: 0.01`.
 */
export function hasAtMostTwoDecimals(value: number): boolean {
  return isDecimalMultiple(value, 0.01);
}

/**
 * The exact decimal text of an accepted amount, as NUMERIC(14,2) stores it: `toFixed(2)` rounds the binary
 * number back to the two-decimal value the client wrote (every such value below 10^13 round-trips).
 */
export function amountText(value: number): string {
  return value.toFixed(2);
}

/** An amount (or sum) the database wrote as decimal text, as the JSON number the API answers. */
export function amountNumber(text: string): number {
  return Number(text);
}
