import { type PGlite, parse, protocol, type QueryOptions, type Results } from '@electric-sql/pglite';

type Statement = { name: string; paramTypes: number[] | null };
type Parsers = PGlite['parsers'];

// Both mean the server no longer holds the statement as parsed (deallocated, or its tables changed shape).
const STALE_STATEMENT = new Set(['26000', '0A000']);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * PGlite's `query` parses, plans and describes every statement anew in six protocol calls into WASM; a
 * registered statement is parsed once under a name and then runs as one bind/execute call.
 */
export class PgliteStatements {
  private readonly statements = new Map<string, Statement>();
  private readonly parsers = new WeakMap<object, Parsers>();
  private nextId = 0;
  private transactions = 0;

  /** PGlite as Drizzle uses it, with `query` taking the named path for registered statements. */
  readonly client: PGlite;

  constructor(private readonly pglite: PGlite) {
    const query = this.query.bind(this);
    const transaction = this.transaction.bind(this);
    this.client = new Proxy(pglite, {
      get(target, property) {
        if (property === 'query') return query;
        if (property === 'transaction') return transaction;
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  /** Whether a transaction holds the database's one session (queries outside it wait for its end). */
  get inTransaction(): boolean {
    return this.transactions > 0;
  }

  private async transaction<T>(callback: Parameters<PGlite['transaction']>[0]): Promise<T> {
    this.transactions++;
    try {
      return (await this.pglite.transaction(callback)) as T;
    } finally {
      this.transactions--;
    }
  }

  /** Runs this exact SQL text as a named prepared statement from now on. */
  register(text: string): void {
    if (!this.statements.has(text)) this.statements.set(text, { name: '', paramTypes: null });
  }

  async query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    const statement = this.statements.get(text);
    if (!statement || options?.blob || options?.paramTypes)
      return this.pglite.query<T>(text, params, options);
    const pglite = this.pglite;
    await pglite._checkReady();
    // The same locks as `query`: never inside another caller's transaction.
    return pglite._runExclusiveTransaction(() =>
      pglite._runExclusiveQuery(async () => {
        let messages: Awaited<ReturnType<PGlite['execProtocolStream']>>;
        try {
          messages = await this.execute(text, statement, params, options);
        } catch (error) {
          if (!STALE_STATEMENT.has((error as { code?: string }).code ?? '')) throw error;
          statement.paramTypes = null;
          messages = await this.execute(text, statement, params, options);
        }
        await pglite.syncToFs();
        return parse.parseResults(messages, this.parsersFor(options), {
          rowMode: options?.rowMode,
        })[0] as Results<T>;
      }),
    );
  }

  private async execute(text: string, statement: Statement, params: unknown[], options?: QueryOptions) {
    const { serialize } = protocol;
    const pglite = this.pglite;
    const noSync = { syncToFs: false };
    if (!statement.paramTypes) {
      statement.name = `tmw_statement_${++this.nextId}`;
      const described = await pglite.execProtocolStream(
        concat([
          serialize.parse({ name: statement.name, text }),
          serialize.describe({ type: 'S', name: statement.name }),
          serialize.sync(),
        ]),
        noSync,
      );
      statement.paramTypes = parse.parseDescribeStatementResults(described);
    }
    const types = statement.paramTypes;
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = options?.serializers?.[types[i]!] ?? pglite.serializers[types[i]!];
      return serializer ? serializer(value) : String(value);
    });
    return pglite.execProtocolStream(
      concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      noSync,
    );
  }

  // PGlite copies its whole parser table into every result otherwise; this view follows it as it grows.
  private parsersFor(options?: QueryOptions): Parsers {
    const own = options?.parsers;
    if (!own) return this.pglite.parsers;
    let merged = this.parsers.get(own);
    if (!merged) {
      merged = Object.setPrototypeOf({ ...own }, this.pglite.parsers) as Parsers;
      this.parsers.set(own, merged);
    }
    return merged;
  }
}
