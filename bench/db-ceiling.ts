import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { applyPlannerSettings } from '../src/db/pglite-client.ts';
import { PgliteStatements } from '../src/db/pglite-statements.ts';
import { PLANNER_SETTINGS } from '../src/db/planner-settings.ts';

/**
 * The database-backed ceilings: a bare node:http server that answers `/track/{id}` with one prepared
 * primary-key read of a track and `/page/{teamId}` with a 50-row page of a team's tracks, each
 * JSON-encoded. It opens the same database the service uses (DATABASE_URL, else the embedded one under
 * DATA_DIR), so a service scenario divided by its ceiling says how much of the database's own speed the
 * service keeps. Both run their reads as prepared (named) statements, and read every column but the
 * search vector (an index of the text no answer shows), with the service's planner settings.
 */
// Every column of the row but the search index's own vector, which no answer shows.
const COLUMNS = `select string_agg(quote_ident(column_name), ', ' order by ordinal_position) as list
  from information_schema.columns where table_name = 'tracks' and column_name <> 'search_vector'`;
const track = (columns: string) => `select ${columns} from tracks where id = $1`;
const page = (columns: string) =>
  `select ${columns} from tracks where team_id = $1 and deleted_at is null order by updated_at desc, id desc limit 50`;

type Query = (kind: 'track' | 'page', id: number) => Promise<unknown[]>;

async function openQuery(): Promise<Query> {
  if (process.env.DATABASE_URL) {
    const sql = postgres(process.env.DATABASE_URL, {
      max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      connection: PLANNER_SETTINGS,
    });
    const [{ list }] = (await sql.unsafe(COLUMNS)) as unknown as [{ list: string }];
    const texts = { track: track(list), page: page(list) };
    return (kind, id) => sql.unsafe(texts[kind], [id], { prepare: true });
  }
  const pglite = await PGlite.create({ dataDir: join(process.env.DATA_DIR ?? './data', 'pg') });
  await applyPlannerSettings(pglite);
  const { list } = (await pglite.query<{ list: string }>(COLUMNS)).rows[0]!;
  const texts = { track: track(list), page: page(list) };
  // Named statements, as the service runs its hot reads on PGlite.
  const statements = new PgliteStatements(pglite);
  statements.register(texts.track);
  statements.register(texts.page);
  return async (kind, id) => (await statements.query(texts[kind], [id])).rows;
}

function send(res: ServerResponse, status: number, value: unknown) {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

const query = await openQuery();
const server = createServer((req, res) => {
  const [, kind, id] = (req.url ?? '').split('/');
  if (kind !== 'track' && kind !== 'page') return send(res, 200, { status: 'ok' });
  query(kind, Number(id)).then(
    (rows) =>
      kind === 'track' ? send(res, rows[0] ? 200 : 404, rows[0] ?? {}) : send(res, 200, { items: rows }),
    () => send(res, 500, { error: 'query failed' }),
  );
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
