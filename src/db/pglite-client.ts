import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { type Database, type Db, PLANNER_SETTINGS } from './client.ts';
import { PgliteStatements } from './pglite-statements.ts';
import * as schema from './schema/index.ts';
import { attachPgliteStatements } from './statement-registry.ts';

/** The embedded database persisted in `dir`. */
export async function openPglite(dir: string): Promise<Database> {
  return wrapPglite(await PGlite.create({ dataDir: dir }));
}

const PING = 'select 1';

/** The planner settings of the service's PostgreSQL connections, for PGlite's one session. */
export async function applyPlannerSettings(pglite: PGlite): Promise<void> {
  for (const [name, value] of Object.entries(PLANNER_SETTINGS)) await pglite.exec(`set ${name} = '${value}'`);
}

/** Wraps an already created PGlite (persistent, in memory, or cloned from a template). */
export async function wrapPglite(pglite: PGlite): Promise<Database> {
  await applyPlannerSettings(pglite);
  const statements = new PgliteStatements(pglite);
  const db = drizzlePglite({ client: statements.client, schema, casing: 'snake_case' }) as unknown as Db;
  attachPgliteStatements(db, statements);
  statements.register(PING);
  return {
    db,
    kind: 'pglite',
    pglite,
    ping: async () => {
      // A running transaction shows the database is up; a query would only wait for it to end, and a long
      // one (a large import, a batch at a time) would hold the health check as long.
      if (statements.inTransaction) return !pglite.closed;
      try {
        await statements.query(PING);
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      if (!pglite.closed) await pglite.close();
    },
    // One connection: NOTIFY reaches its own LISTEN when the notifying transaction commits.
    listen: async (channel, onNotify, onListen) => {
      const unlisten = await pglite.listen(channel, onNotify);
      onListen?.();
      return () => unlisten();
    },
  };
}
