import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountNumber, amountText, hasAtMostTwoDecimals, MAX_AMOUNT } from './amounts.ts';

const MAX_CENTS = Math.round(MAX_AMOUNT * 100);

/** The decimal text of a whole number of cents, written without any floating point. */
const centsText = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

describe('money amounts', () => {
  it('accepts every two-decimal value up to the largest amount, and writes it back exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_CENTS }), (cents) => {
        const text = centsText(cents);
        // What a client's JSON number parses to.
        const value = Number(text);
        expect(hasAtMostTwoDecimals(value)).toBe(true);
        expect(amountText(value)).toBe(text);
        expect(amountNumber(amountText(value))).toBe(value);
      }),
      { numRuns: 20_000 },
    );
  });

  it('refuses a value with a third decimal', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_CENTS }),
        fc.integer({ min: 1, max: 9 }),
        (cents, thousandth) => {
          // At most 15 significant digits: a double still tells the thousandth apart.
          const value = Number(`${centsText(cents)}${thousandth}`);
          expect(hasAtMostTwoDecimals(value)).toBe(false);
        },
      ),
      { numRuns: 20_000 },
    );
    for (const value of [0.001, 1e-7, 1.005, 0.015, 123.456, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(hasAtMostTwoDecimals(value), String(value)).toBe(false);
    }
  });

  it('knows the cases where binary floating point and cents disagree', () => {
    // 0.29 / 0.01 is not a whole number in binary floating point: a multipleOf check would refuse it.
    expect(Number.isInteger(0.29 / 0.01)).toBe(false);
    expect(hasAtMostTwoDecimals(0.29)).toBe(true);
    expect(amountText(0.1 + 0.2)).toBe('0.30');
    expect(hasAtMostTwoDecimals(0.1 + 0.2)).toBe(false);
  });
});
