import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { aiSearchScenarios } from './ai-search.ts';
import { albumScenarios } from './albums.ts';
import { catalogueScenarios, seedBenchCatalogue } from './catalogue.ts';
import { buildService, start, stop, tmw } from './processes.ts';
import type { Ceiling, Scenario } from './scenario.ts';
import { seedSearchCatalogue, unifiedSearchScenarios } from './unified-search.ts';

/**
 * `npm run bench`: starts the service on a fresh data directory (or BENCH_DATABASE_URL), seeds what the
 * scenarios need, and runs each scenario and three bare node:http ceilings in the same run: a constant JSON
 * answer, one primary-key read of a track and a 50-row page of a team's tracks, both on the service's
 * database. Each scenario runs BENCH_ROUNDS rounds (default 2), each beside a round of its ceiling where
 * the database serves both at once (PostgreSQL), and prints the best round's ratio to the best ceiling it
 * was measured beside, and the service's memory after it; the end and peak memory are printed last.
 * BENCH_ONLY (a piece of a scenario's name) measures only the scenarios whose name holds it.
 * BENCH_DURATION (seconds, default 5) and BENCH_CONNECTIONS (default 32) tune the load; BENCH_TEAMS and
 * BENCH_TRACKS_PER_TEAM (default 1,000 x 100) size the seeded catalogue.
 */
const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const only = process.env.BENCH_ONLY;

type Measured = { rps: number; p50: number; p99: number; non2xx: number };
type Row = Measured & { name: string; ratio: number; of: Ceiling; rss: string };

/** The round with more requests a second; answers other than 2xx count from every round. */
function best(a: Measured | undefined, b: Measured): Measured {
  if (!a) return b;
  const winner = b.rps > a.rps ? b : a;
  return { ...winner, non2xx: Math.max(a.non2xx, b.non2xx) };
}

async function measure(url: string, scenario: Scenario, seconds = duration): Promise<Measured> {
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
  await seedSearchCatalogue(env);
  const catalogueKey = tmw(['key', 'create', '--team', String(catalogue.teamId), '--name', 'bench'], env);

  const dbCeiling = await start(['--import', './bin/typescript.js', 'bench/db-ceiling.ts'], env, '/');
  const ceilingPaths: Record<Ceiling, string> = {
    json: '/',
    pk: `/track/${catalogue.trackId}`,
    page: `/page/${catalogue.teamId}`,
  };
  // A first pass warms the database's cache and the engine's code, as the service's first scenarios do.
  await measure(dbCeiling.url, { name: 'warm-up', path: ceilingPaths.pk }, 1);
  await measure(dbCeiling.url, { name: 'warm-up', path: ceilingPaths.page }, 1);
  // PostgreSQL serves both at once, so each scenario is measured beside its ceiling, round after round;
  // the embedded database belongs to one process at a time, so there the database ceilings run first.
  const interleaved = env.DATABASE_URL !== undefined;
  const ceilingsFirst: Partial<Record<Ceiling, Measured>> = {};
  if (!interleaved) {
    for (let round = 0; round < rounds; round++)
      for (const kind of ['pk', 'page'] as const)
        ceilingsFirst[kind] = best(
          ceilingsFirst[kind],
          await measure(dbCeiling.url, { name: kind, path: ceilingPaths[kind] }),
        );
    await stop(dbCeiling.child);
  }

  const ceiling = await start(['--import', './bin/typescript.js', 'bench/ceiling.ts'], {}, '/');
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
    scenarios.push(...unifiedSearchScenarios(catalogue).map((s) => ({ ...s, headers: asSession })));
    scenarios.push({
      name: 'track (API key)',
      ceiling: 'pk',
      path: `/api/v1/tracks/${catalogue.trackId}`,
      headers: { authorization: `Bearer ${catalogueKey}` },
    });
    scenarios.push(...(await albumScenarios(server.url, session, Number(teamId))));
    scenarios.push(...aiSearchScenarios(key));

    const ceilingUrl = (of: Ceiling) => (of === 'json' ? ceiling.url : dbCeiling.url);
    const ceilings: Partial<Record<Ceiling, Measured>> = { ...ceilingsFirst };
    // The peak printed at the end is that of the scenarios, not of start-up and the sign-in's password hash.
    resetPeakMemory(server.child.pid);
    const rows: Row[] = [];
    for (const scenario of scenarios.filter((s) => only === undefined || s.name.includes(only))) {
      const of = scenario.ceiling ?? 'json';
      let mine: Measured | undefined;
      let theirs = ceilingsFirst[of];
      for (let round = 0; round < rounds; round++) {
        if (of === 'json' || interleaved) {
          const measured = await measure(ceilingUrl(of), { name: of, path: ceilingPaths[of] });
          theirs = best(theirs, measured);
          ceilings[of] = best(ceilings[of], measured);
        }
        mine = best(mine, await measure(server.url, scenario));
      }
      rows.push({
        name: scenario.name,
        ...mine!,
        ratio: mine!.rps / theirs!.rps,
        of,
        rss: memoryMiB(server.child.pid, 'VmRSS'),
      });
    }
    const ceilingRows: Row[] = (
      [
        ['node:http ceiling (JSON)', 'json'],
        ['node:http + db, one track (pk)', 'pk'],
        ['node:http + db, 50 tracks (page)', 'page'],
      ] as const
    )
      .filter(([, of]) => ceilings[of] !== undefined)
      .map(([name, of]) => ({ name, ...ceilings[of]!, ratio: 1, of, rss: '' }));
    const rss = residentMemory(server.child.pid);
    process.stdout.write(
      `\n${connections} connections, ${duration}s per scenario, best of ${rounds} round(s)${interleaved ? ' each beside its ceiling' : ''}, database: ${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}\n\n`,
    );
    process.stdout.write(
      `${'scenario'.padEnd(38)}${'req/s'.padStart(10)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'non-2xx'.padStart(9)}${'ratio'.padStart(8)}  of  ${'RSS MiB'.padStart(8)}\n`,
    );
    for (const r of [...ceilingRows, ...rows]) {
      process.stdout.write(
        `${r.name.padEnd(38)}${r.rps.toFixed(0).padStart(10)}${String(r.p50).padStart(9)}${String(r.p99).padStart(9)}${String(r.non2xx).padStart(9)}${r.ratio.toFixed(2).padStart(8)}  ${r.of.padEnd(4)}${r.rss.padStart(8)}\n`,
      );
    }
    process.stdout.write(`\nservice memory at the end: ${rss}\n`);
    await stop(server.child);
    await compareRuntimes(service, env, scenarios, rows);
  } finally {
    await stop(server.child);
    await stop(ceiling.child);
    await stop(dbCeiling.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The scenarios measured again on another Node runtime (the one the machine has), beside this run's. */
const RUNTIME_SCENARIOS = ['health (anonymous)', 'track (API key)', 'auth/me (session)'];

/**
 * Runs the service on BENCH_COMPARE_NODE (default: the machine's `/usr/bin/node`, when it is another
 * version than the one running the bench) for a few scenarios, and prints both runtimes' figures.
 */
async function compareRuntimes(
  service: string[],
  env: Record<string, string>,
  scenarios: Scenario[],
  rows: Row[],
): Promise<void> {
  const other = process.env.BENCH_COMPARE_NODE ?? '/usr/bin/node';
  if (!existsSync(other)) return;
  const version = execFileSync(other, ['--version']).toString().trim();
  if (version === process.version) return;
  const server = await start(service, env, '/api/v1/health', other);
  try {
    process.stdout.write(`\nthe same scenarios on two runtimes (req/s, best of ${rounds}):\n`);
    process.stdout.write(`${'scenario'.padEnd(38)}${process.version.padStart(12)}${version.padStart(12)}\n`);
    for (const name of RUNTIME_SCENARIOS) {
      const scenario = scenarios.find((s) => s.name === name);
      const mine = rows.find((r) => r.name === name);
      if (!scenario || !mine) continue;
      let theirs: Measured | undefined;
      for (let round = 0; round < rounds; round++) theirs = best(theirs, await measure(server.url, scenario));
      process.stdout.write(
        `${name.padEnd(38)}${mine.rps.toFixed(0).padStart(12)}${theirs!.rps.toFixed(0).padStart(12)}\n`,
      );
    }
  } finally {
    await stop(server.child);
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

/** A memory field of a process's /proc status (VmRSS, VmHWM) in MiB, or '' where there is no /proc. */
function memoryMiB(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): string {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return (Number(/\d+/.exec(status.split(`${field}:`)[1] ?? '')?.[0] ?? 0) / 1024).toFixed(0);
  } catch {
    return '';
  }
}

/** Resident memory of a process, and its peak since resetPeakMemory. */
function residentMemory(pid: number | undefined): string {
  const rss = memoryMiB(pid, 'VmRSS');
  if (!rss) return 'unknown (no /proc)';
  return `RSS ${rss} MiB, peak during the scenarios ${memoryMiB(pid, 'VmHWM')} MiB`;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
