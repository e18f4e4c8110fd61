import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { PgliteStatements } from '../src/db/pglite-statements.ts';

/**
 * The database-backed ceilings: a bare node:http server that answers `/track/{id}` with one prepared
 * primary-key read of a track and `/page/{teamId}` with a 50-row page of a team's tracks, each
 * JSON-encoded. It opens the same database the service uses (DATABASE_URL, else the embedded one under
 * DATA_DIR), so a service scenario divided by its ceiling says how much of the database's own speed the
 * service keeps. Both run their reads as prepared (named) statements.
 */
const TRACK = 'select * from tracks where id = $1';
const PAGE =
  'select * from tracks where team_id = $1 and deleted_at is null order by updated_at desc, id desc limit 50';

type Query = (text: string, params: number[]) => Promise<unknown[]>;

async function openQuery(): Promise<Query> {
  if (process.env.DATABASE_URL) {
    const sql = postgres(process.env.DATABASE_URL, { max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
    return (text, params) => sql.unsafe(text, params, { prepare: true });
  }
  const pglite = await PGlite.create({ dataDir: join(process.env.DATA_DIR ?? './data', 'pg') });
  // Named statements, as the service runs its hot reads on PGlite.
  const statements = new PgliteStatements(pglite);
  statements.register(TRACK);
  statements.register(PAGE);
  return async (text, params) => (await statements.query(text, params)).rows;
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
  const text = kind === 'track' ? TRACK : kind === 'page' ? PAGE : undefined;
  if (!text) return send(res, 200, { status: 'ok' });
  query(text, [Number(id)]).then(
    (rows) =>
      kind === 'track' ? send(res, rows[0] ? 200 : 404, rows[0] ?? {}) : send(res, 200, { items: rows }),
    () => send(res, 500, { error: 'query failed' }),
  );
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
