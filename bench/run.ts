import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { aiSearchScenarios } from './ai-search.ts';
import { albumScenarios } from './albums.ts';
import { catalogueScenarios, seedBenchCatalogue } from './catalogue.ts';
import { buildService, start, stop, tmw } from './processes.ts';
import type { Ceiling, Scenario } from './scenario.ts';

/**
 * `npm run bench`: starts the service on a fresh data directory (or BENCH_DATABASE_URL), seeds what the
 * scenarios need, and runs each scenario and three bare node:http ceilings in the same run: a constant JSON
 * answer, one primary-key read of a track and a 50-row page of a team's tracks, both on the service's
 * database. Each scenario prints its ratio to the matching ceiling; the service's memory is printed last.
 * BENCH_DURATION (seconds, default 5) and BENCH_CONNECTIONS (default 32) tune the load; BENCH_TEAMS and
 * BENCH_TRACKS_PER_TEAM (default 1,000 x 100) size the seeded catalogue.
 */
const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

async function measure(url: string, scenario: Scenario, seconds = duration) {
  const result = await autocannon({
    url: `${url}${scenario.path}`,
    method: scenario.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...scenario.headers },
    ...(scenario.body ? { body: scenario.body } : {}),
    connections,
    duration: seconds,
  });
  const non2xx = result.non2xx + result.errors;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx };
}

async function main() {
  const service = buildService();
  const dataDir = mkdtempSync(join(tmpdir(), 'tmw-bench-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', HOST: '127.0.0.1' };
  if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;

  // Seeded before the server starts: the embedded database belongs to one process at a time.
  const email = `bench-${Date.now()}@example.test`;
  tmw(['user', 'create', '--email', email, '--password', 'bench-password'], env);
  const teamId = tmw(['team', 'create', '--name', 'Bench', '--owner', email, '--plan', 'enterprise'], env);
  const key = tmw(['key', 'create', '--team', teamId, '--name', 'bench'], env);
  const catalogue = await seedBenchCatalogue(env, email);
  const catalogueKey = tmw(['key', 'create', '--team', String(catalogue.teamId), '--name', 'bench'], env);

  // The embedded database belongs to one process at a time: the database ceilings run before the service.
  const dbCeiling = await start(['--import', 'tsx', 'bench/db-ceiling.ts'], env, '/');
  // A first pass warms the database's cache and the engine's code, as the service's first scenarios do.
  await measure(dbCeiling.url, { name: 'warm-up', path: `/track/${catalogue.trackId}` }, 1);
  await measure(dbCeiling.url, { name: 'warm-up', path: `/page/${catalogue.teamId}` }, 1);
  const ceilings: Record<Ceiling, Awaited<ReturnType<typeof measure>>> = {
    json: { rps: 0, p50: 0, p99: 0, non2xx: 0 },
    pk: await measure(dbCeiling.url, { name: 'pk', path: `/track/${catalogue.trackId}` }),
    page: await measure(dbCeiling.url, { name: 'page', path: `/page/${catalogue.teamId}` }),
  };
  await stop(dbCeiling.child);

  const ceiling = await start(['--import', 'tsx', 'bench/ceiling.ts'], {}, '/');
  const server = await start(service, env, '/api/v1/health');
  try {
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'bench-password' }),
    });
    const session = ((await login.json()) as { access_token: string }).access_token;
    const scenarios: Scenario[] = [
      { name: 'health (anonymous)', path: '/api/v1/health' },
      {
        name: 'auth/me (session)',
        ceiling: 'pk',
        path: '/api/v1/auth/me',
        headers: { authorization: `Bearer ${session}` },
      },
      {
        name: 'team (session)',
        ceiling: 'pk',
        path: `/api/v1/teams/${teamId}`,
        headers: { authorization: `Bearer ${session}` },
      },
      {
        name: 'authenticated no-op 404 (API key)',
        path: '/api/v1/bench-no-op',
        headers: { authorization: `Bearer ${key}` },
      },
    ];
    const asSession = { authorization: `Bearer ${session}` };
    scenarios.push(...catalogueScenarios(catalogue).map((s) => ({ ...s, headers: asSession })));
    scenarios.push({
      name: 'track (API key)',
      ceiling: 'pk',
      path: `/api/v1/tracks/${catalogue.trackId}`,
      headers: { authorization: `Bearer ${catalogueKey}` },
    });
    scenarios.push(...(await albumScenarios(server.url, session, Number(teamId))));
    scenarios.push(...aiSearchScenarios(key));

    ceilings.json = await measure(ceiling.url, { name: 'ceiling', path: '/' });
    // The peak printed at the end is that of the scenarios, not of start-up and the sign-in's password hash.
    resetPeakMemory(server.child.pid);
    const rows = [
      { name: 'node:http ceiling (JSON)', ...ceilings.json, ratio: 1, of: 'json' },
      { name: 'node:http + db, one track (pk)', ...ceilings.pk, ratio: 1, of: 'pk' },
      { name: 'node:http + db, 50 tracks (page)', ...ceilings.page, ratio: 1, of: 'page' },
    ];
    for (const scenario of scenarios) {
      const r = await measure(server.url, scenario);
      const of = scenario.ceiling ?? 'json';
      rows.push({ name: scenario.name, ...r, ratio: r.rps / ceilings[of].rps, of });
    }
    const rss = residentMemory(server.child.pid);
    process.stdout.write(
      `\n${connections} connections, ${duration}s per scenario, database: ${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}\n\n`,
    );
    process.stdout.write(
      `${'scenario'.padEnd(38)}${'req/s'.padStart(10)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'non-2xx'.padStart(9)}${'ratio'.padStart(8)}  of\n`,
    );
    for (const r of rows) {
      process.stdout.write(
        `${r.name.padEnd(38)}${r.rps.toFixed(0).padStart(10)}${String(r.p50).padStart(9)}${String(r.p99).padStart(9)}${String(r.non2xx).padStart(9)}${r.ratio.toFixed(2).padStart(8)}  ${r.of}\n`,
      );
    }
    process.stdout.write(`\nservice memory at the end: ${rss}\n`);
  } finally {
    await stop(server.child);
    await stop(ceiling.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Starts the process's peak resident memory afresh from now (Linux: `clear_refs`). */
function resetPeakMemory(pid: number | undefined): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Elsewhere the peak printed is the process's whole life.
  }
}

/** Resident memory of a process, and its peak since resetPeakMemory, from /proc (Linux). */
function residentMemory(pid: number | undefined): string {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const mib = (field: string) => Number(/\d+/.exec(status.split(`${field}:`)[1] ?? '')?.[0] ?? 0) / 1024;
    return `RSS ${mib('VmRSS').toFixed(0)} MiB, peak during the scenarios ${mib('VmHWM').toFixed(0)} MiB`;
  } catch {
    return 'unknown (no /proc)';
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
