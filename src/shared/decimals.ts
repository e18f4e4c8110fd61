/** A finite number as an exact decimal: `digits × 10^exponent`. */
type Decimal = { digits: bigint; exponent: number };

const SHORTEST = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * The decimal a number stands for: the shortest text that reads back as the same number (what
 * `String(n)` writes, e.g. `120.01`, `1e-300`), so 0.07 is 7 × 10^-2 and not the binary fraction near it.
 */
function decimalOf(value: number): Decimal | undefined {
  const match = SHORTEST.exec(String(value));
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  return {
    digits: BigInt(`${sign}${whole}${fraction}`),
    exponent: Number(exponent) - fraction.length,
  };
}

/**
 * Whether `value` is a whole multiple of `step` (both positive or negative decimals such as 0.01), decided
 * on the decimals the numbers stand for. Floating-point division cannot say it: 120.29 / 0.01 is not a whole
 * number in binary, and 1e-300 / 0.01 is within any tolerance of 0.
 */
export function isDecimalMultiple(value: number, step: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(step) || step === 0) return false;
  const a = decimalOf(value);
  const b = decimalOf(step);
  if (!a || !b) return false;
  const exponent = Math.min(a.exponent, b.exponent);
  const scaledValue = a.digits * 10n ** BigInt(a.exponent - exponent);
  const scaledStep = b.digits * 10n ** BigInt(b.exponent - exponent);
  return scaledValue % scaledStep === 0n;
}
