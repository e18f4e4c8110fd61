import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../test/helpers/context.ts';
import { MAX_AMOUNT } from '../modules/financials/amounts.ts';
import { isDecimalMultiple } from '../shared/decimals.ts';

const ctx = useTestContext();

/**
 * The test's own reading of a JSON number as written: hundredths as a whole number, or undefined when the
 * text has more than two decimals. Plain string work on the digits, no floating point.
 */
function hundredthsOf(text: string): bigint | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) throw new Error(`not a JSON number: ${text}`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, '');
  let scale = Number(exponent) - fraction.length;
  while (digits.length > 1 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale++;
  }
  if (/^0+$/.test(digits)) return 0n;
  if (scale < -2) return undefined;
  return BigInt(`${sign}${digits}`) * 10n ** BigInt(scale + 2);
}

/** Whether a number written as `text` is above 0, at most `max` and has at most two decimals. */
function expectedValid(text: string, max: number): boolean {
  const hundredths = hundredthsOf(text);
  return hundredths !== undefined && hundredths > 0n && hundredths <= BigInt(Math.round(max * 100));
}

/**
 * JSON number texts that read back as the number they write (at most 15 significant digits), from tiny to
 * huge, plus the shortest text of any double (what JSON.stringify sends): 1e-300, 5e-324, 1e300,
 * 0.30000000000000004 and the like.
 */
const numberText = fc.oneof(
  fc
    .record({
      negative: fc.boolean(),
      digits: fc.stringMatching(/^[1-9]\d{0,14}$/),
      exponent: fc.oneof(fc.integer({ min: -6, max: 6 }), fc.integer({ min: -330, max: 330 })),
    })
    .map(({ negative, digits, exponent }) => `${negative ? '-' : ''}${digits}e${exponent}`),
  fc
    .tuple(fc.integer({ min: 0, max: 99_999_999_999_999 }), fc.integer({ min: 0, max: 4 }))
    .map(([n, decimals]) => (n / 10 ** decimals).toString()),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
);

describe('multipleOf and two-decimal rules are exact', () => {
  it('isDecimalMultiple agrees with the decimals a number is written with', () => {
    for (const [value, step, expected] of [
      [0.07, 0.01, true],
      [120.01, 0.01, true],
      [120.29, 0.01, true],
      [99_999_999.99, 0.01, true],
      [1e-300, 0.01, false],
      [5e-324, 0.01, false],
      [1e300, 0.01, true],
      [0.1 + 0.2, 0.01, false],
      [0.004, 0.01, false],
      [7.5, 0.25, true],
      [7.6, 0.25, false],
    ] as const) {
      expect(isDecimalMultiple(value, step), `${value} / ${step}`).toBe(expected);
    }
  });

  it('PATCH /tracks/{id} answers bpm as an exact decimal check says (0 < bpm <= 999.99, two decimals)', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    await fc.assert(
      fc.asyncProperty(numberText, async (text) => {
        if (Number(text) === 0 && text.startsWith('-')) return; // -0 is 0: refused either way
        const res = await ctx.request({
          method: 'PATCH',
          url: `/api/v1/tracks/${track.id}`,
          token: team.owner.token,
          headers: { 'content-type': 'application/json' },
          payload: `{"bpm":${text}}`,
        });
        const valid = expectedValid(text, 999.99);
        expect(res.statusCode, `${text}: ${res.body}`).toBe(valid ? 200 : 400);
        if (valid) expect(res.json().bpm).toBe(Number(text));
        else
          expect(new Set(res.json().details.map((d: { path: string }) => d.path))).toEqual(
            new Set(['/body/bpm']),
          );
      }),
      { numRuns: 300 },
    );
  });

  it('POST /financials answers amounts as the same exact check says (0 < amount <= MAX_AMOUNT)', async () => {
    const team = await ctx.newTeam();
    await fc.assert(
      fc.asyncProperty(numberText, async (text) => {
        const res = await ctx.request({
          method: 'POST',
          url: '/api/v1/financials/',
          token: team.owner.token,
          headers: { 'content-type': 'application/json' },
          payload: `{"teamId":${team.id},"isIncome":true,"amount":${text}}`,
        });
        const valid = expectedValid(text, MAX_AMOUNT);
        expect(res.statusCode, `${text}: ${res.body}`).toBe(valid ? 201 : 400);
        if (valid) expect(res.json().amount).toBe(Number(text));
      }),
      { numRuns: 200 },
    );
  });

  it('refuses the bpm values of the report (1e-300, 0.004, 1e300) and keeps 0.07, 120.01, 999.99', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const patch = (bpm: number) =>
      ctx.request({
        method: 'PATCH',
        url: `/api/v1/tracks/${track.id}`,
        token: team.owner.token,
        payload: { bpm },
      });
    for (const bpm of [1e-300, 0.004, 1e300, 5e-324])
      expect((await patch(bpm)).statusCode, String(bpm)).toBe(400);
    const read = await ctx.request({
      method: 'GET',
      url: `/api/v1/tracks/${track.id}`,
      token: team.owner.token,
    });
    expect(read.json().bpm).toBeNull();
    for (const bpm of [0.07, 120.01, 999.99]) {
      const res = await patch(bpm);
      expect(res.statusCode, String(bpm)).toBe(200);
      expect(res.json().bpm).toBe(bpm);
    }
  });
});
