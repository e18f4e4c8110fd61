import { lazyRequire } from './lazy-module.ts';

// Required, not imported: only the export routes write CSV, so the package loads on the first export.
const csvStringify = lazyRequire<typeof import('csv-stringify/sync')>('csv-stringify/sync');

// A spreadsheet runs a cell whose text starts with = + - @ (or their full-width forms), a tab or a CR, and a
// line break inside a cell starts a new line it reads the same way; so every line start that begins with one
// of them gets a leading '. Lookbehind and lookahead only, so the pattern never backtracks.
const FORMULA_LINE_START = /(?<=^|[\r\n])(?=[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/g;

/** A cell's text as an export writes it: `'` before each line start a spreadsheet would run as a formula. */
export function neutraliseFormulas(text: string): string {
  return text.replace(FORMULA_LINE_START, "'");
}

// RFC 4180: CRLF record ends, and any cell holding a CR or an LF is quoted (the package quotes only the
// record delimiter itself, so a bare LF or CR would otherwise start a new row). The package's own formula
// escape looks at the first character only, so the cast does it for every line.
const OPTIONS = {
  record_delimiter: 'windows',
  quoted_match: /[\r\n]/,
  cast: { string: neutraliseFormulas },
} as const;

/** What the API documents of its CSV cells (the OpenAPI descriptions of every CSV export say it). */
export const CSV_CELL_RULES =
  'a cell holding a line break is quoted; a text cell, or any line within it, that starts with =, +, -, @ ' +
  "(or their full-width forms), a tab or a carriage return gets a leading ' so spreadsheets never run it";

/** A cell: text, or null for an empty cell. */
export type CsvCell = string | null;

/** The CSV text of these rows (each ending in CRLF), every text cell quoted and neutralised as it needs. */
export function csvRows(rows: CsvCell[][]): string {
  return csvStringify().stringify(rows, OPTIONS);
}
