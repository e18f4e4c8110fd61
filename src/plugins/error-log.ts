import { causes } from '../shared/db-errors.ts';

/**
 * Fields of database errors that hold the values bound to a query (e-mails, token hashes, password
 * hashes) or describe them: Drizzle's and PGlite's `params`, PGlite's `queryOptions`, postgres.js's
 * `parameters`, `args` and `types`. They are never logged.
 */
const BOUND_VALUE_FIELDS = new Set(['params', 'parameters', 'args', 'types', 'queryOptions']);

/** Bound values shorter than this are not searched for in messages: "es" or "42" name nobody. */
const MIN_SCRUBBED_LENGTH = 4;
const REDACTED = '[redacted]';
const MAX_DEPTH = 8;

type ErrorLike = Error & Record<string, unknown>;

const isErrorLike = (value: unknown): value is ErrorLike =>
  value instanceof Error ||
  (typeof value === 'object' && value !== null && typeof (value as Error).message === 'string');

const isDocument = (value: unknown) =>
  typeof value === 'object' && value !== null && !(value instanceof Date) && !ArrayBuffer.isView(value);

/** Every bound value of the error's chain, as the text a message may quote it in, longest first. */
function boundTexts(error: unknown): string[] {
  const texts = new Set<string>();
  for (const e of causes(error)) {
    for (const field of BOUND_VALUE_FIELDS) {
      const values = e[field];
      if (!Array.isArray(values)) continue;
      for (const value of values) {
        // Numbers, booleans and dates are ids, flags and times; strings and JSON documents may be secrets.
        const text = typeof value === 'string' ? value : isDocument(value) ? JSON.stringify(value) : '';
        if (text.length >= MIN_SCRUBBED_LENGTH) texts.add(text);
      }
    }
  }
  return [...texts].sort((a, b) => b.length - a.length);
}

/** Drizzle's message repeats the bound values after the query: "Failed query: …\nparams: …". */
function withoutParamsLine(error: ErrorLike, text: string): string {
  if (typeof error.query !== 'string' || !Array.isArray(error.params)) return text;
  const drizzleMessage = `Failed query: ${error.query}\nparams: ${error.params}`;
  return text.replace(drizzleMessage, `Failed query: ${error.query}\nparams: ${REDACTED}`);
}

function view(error: ErrorLike, scrub: (text: string) => string, depth: number): ErrorLogView {
  const clean = (text: string) => scrub(withoutParamsLine(error, text));
  const out: ErrorLogView = {
    type: error.constructor?.name ?? error.name,
    message: clean(error.message),
    stack: typeof error.stack === 'string' ? clean(error.stack) : '',
  };
  for (const key of Object.keys(error)) {
    if (key in out || BOUND_VALUE_FIELDS.has(key)) continue;
    out[key] = fieldView(error[key], scrub, depth);
  }
  if (error.cause !== undefined) out.cause = fieldView(error.cause, scrub, depth);
  return out;
}

function fieldView(value: unknown, scrub: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return scrub(value);
  if (isErrorLike(value)) return depth < MAX_DEPTH ? view(value, scrub, depth + 1) : REDACTED;
  if (Array.isArray(value) && value.some(isErrorLike)) return value.map((v) => fieldView(v, scrub, depth));
  return value;
}

/** An error as a log line holds it. */
export type ErrorLogView = { type: string; message: string; stack: string; [field: string]: unknown };

/**
 * The `err` part of a log line: type, message, code, stack and the other fields of the error and of its
 * causes, without the values bound to a failed query, wherever they appear (their own fields, Drizzle's
 * message, a database message quoting one). The query text itself is kept: its values are placeholders.
 */
export function errorLogView(error: Error): ErrorLogView {
  // Whatever else is logged under `err` is written as it is.
  if (!isErrorLike(error)) return error as unknown as ErrorLogView;
  const texts = boundTexts(error);
  const scrub = (text: string) => texts.reduce((out, secret) => out.replaceAll(secret, REDACTED), text);
  return view(error, scrub, 0);
}
