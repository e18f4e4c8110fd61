import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { wrapPglite } from '../db/pglite-client.ts';

/**
 * `npm run openapi [-- <file>]`: writes the OpenAPI document to a file (default `openapi.json`) without a
 * server or a database: the document comes from the route schemas alone. Servers come from PUBLIC_URL.
 */
async function main() {
  const out = process.argv[2] ?? 'openapi.json';
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const database = await wrapPglite(new PGlite());
  const secret = randomBytes(32).toString('hex');
  const app = await buildApp({
    config,
    database,
    secrets: { tokenSecret: secret, urlSigningSecret: secret },
    logger: false,
  });
  await app.ready();
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
  await app.close();
  await database.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
