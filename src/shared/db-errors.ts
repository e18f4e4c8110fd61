// Connection-level failures (server down, restarting, network cut) as postgres.js, PGlite and Node report them.
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
]);

/** The chain of causes of an error, outermost first (Drizzle wraps driver errors in `cause`). */
export function* causes(error: unknown): Generator<Record<string, unknown>> {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 8; depth++) {
    yield current as Record<string, unknown>;
    current = (current as { cause?: unknown }).cause;
  }
}

/** True when the database could not be reached, as opposed to a query it refused. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causes(error)) {
    const code = e.code;
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
    if (e.message === 'PGlite is closed') return true;
  }
  return false;
}

/** The SQLSTATE of a query error, if the database sent one. */
export function sqlState(error: unknown): string | undefined {
  for (const e of causes(error)) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** The name of the constraint a query broke (postgres.js and PGlite report it under different names). */
export function constraintOf(error: unknown): string | undefined {
  for (const e of causes(error)) {
    const name = e.constraint_name ?? e.constraint;
    if (typeof name === 'string') return name;
  }
  return undefined;
}
