import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { runMigrations } from '../db/migrate.ts';

/** `npm run migrate`: applies the committed migrations and exits non-zero on failure. */
try {
  const config = loadConfig();
  const database = await openDatabase(config, 'npm run migrate');
  try {
    await runMigrations(database);
    process.stdout.write('migrations applied\n');
  } finally {
    await database.close();
  }
} catch (error) {
  process.stderr.write(
    error instanceof ConfigError ? `${error.message}\n` : `migration failed: ${String(error)}\n`,
  );
  process.exit(1);
}
