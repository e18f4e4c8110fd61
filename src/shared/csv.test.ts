import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvRows, neutraliseFormulas } from './csv.ts';

// The characters that make a spreadsheet run a line, or that CSV must quote, drawn often.
const TRICKY = [
  '=',
  '+',
  '-',
  '@',
  '\t',
  '\r',
  '\n',
  '\r\n',
  ',',
  '"',
  "'",
  '＝',
  '＋',
  '－',
  '＠',
  ' ',
  'a',
  '1',
];
const cell = fc.oneof(
  fc.array(fc.constantFrom(...TRICKY), { maxLength: 12 }).map((parts) => parts.join('')),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const rows = fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 });

// Read as a spreadsheet reads it: a bare CR or LF outside quotes ends a row too.
const readBack = (csv: string): string[][] =>
  parse(csv, { record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true });

const RUNS = /^[=+\-@\t\r＝＋－＠]/;

describe('CSV writer', () => {
  it('writes cells that read back as the same rows, neutralised, whatever they hold', () => {
    fc.assert(
      fc.property(rows, (input) => {
        const out = readBack(csvRows(input));
        expect(out).toEqual(input.map((row) => row.map(neutraliseFormulas)));
        // No line of any cell starts the way a formula does.
        for (const line of out.flat().flatMap((text) => text.split(/\r\n|\r|\n/))) {
          expect(line).not.toMatch(RUNS);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("neutralises only by a ' before each line start that would run, so nothing else changes", () => {
    // The rule written out character by character, to check the writer's pattern against.
    const byHand = (text: string) => {
      let out = '';
      let lineStart = true;
      for (const c of text) {
        if (lineStart && RUNS.test(c)) out += "'";
        out += c;
        lineStart = c === '\r' || c === '\n';
      }
      return out;
    };
    fc.assert(
      fc.property(cell, (text) => {
        expect(neutraliseFormulas(text)).toBe(byHand(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('quotes the row-breaking cell of the report and keeps its formula as text', () => {
    expect(csvRows([["Studio rent\n=cmd|' /C calc'!A0", 'x']])).toBe(
      "\"Studio rent\n'=cmd|' /C calc'!A0\",x\r\n",
    );
    expect(csvRows([['a\rb', null, '-1']])).toBe('"a\rb",,\'-1\r\n');
  });
});
