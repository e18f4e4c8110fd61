import type { Server } from 'node:http';
import { buildApp } from './app.ts';
import type { ControlSocket } from './backup/control-socket.ts';
import { openServerControlSocket } from './backup/server-backups.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { runMigrations } from './db/migrate.ts';
import { listenForMetrics } from './modules/operations/metrics-listener.ts';
import { tightenDataDir } from './shared/private-files.ts';
import { resolveSecrets } from './shared/secrets.ts';

async function main() {
  const config = loadConfig();
  // Before anything reads or writes there; the app's logger exists only later.
  const tightened = tightenDataDir(config.dataDir);
  const database = await openDatabase(config, 'the server');
  await runMigrations(database);
  const app = await buildApp({ config, database, secrets: resolveSecrets(config) });
  if (tightened.length > 0) {
    app.log.warn(
      { paths: tightened },
      'data directory permissions were open to other users; made owner-only',
    );
  }

  let stopping = false;
  let metricsServer: Server | undefined;
  const stop = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    try {
      control?.close();
      metricsServer?.closeAllConnections();
      metricsServer?.close();
      await app.close();
      await database.close();
      process.exit(exitCode);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  let control: ControlSocket | undefined;
  // What nothing caught leaves the process in an unknown state: logged, then a bounded shutdown with status 1.
  process.on('uncaughtException', (error) => {
    app.log.fatal({ err: error }, 'uncaught exception; shutting down');
    void stop('uncaughtException', 1);
  });
  process.on('unhandledRejection', (reason) => {
    app.log.fatal({ err: reason }, 'unhandled promise rejection; shutting down');
    void stop('unhandledRejection', 1);
  });
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  if (!stopping) control = await openServerControlSocket(config, database, app.log);
  if (config.web.metrics.port !== undefined && app.metrics && !stopping)
    metricsServer = (await listenForMetrics(app.metrics, config.host, config.web.metrics.port, app.log))
      .server;
  // Stopped by app.close() (the services' onClose hook), before the database closes.
  app.services.jobs.logger = app.log.child({ component: 'jobs' });
  app.services.webhooks.queue.logger = app.log.child({ component: 'webhook-jobs' });
  if (!stopping) {
    app.services.jobs.start();
    app.services.webhooks.queue.start();
    app.services.eventConsumers.log = app.log.child({ component: 'event-consumers' });
    await app.services.eventConsumers.start();
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
