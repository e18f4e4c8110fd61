import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { buildService, start, stop, tmw } from './processes.ts';

/**
 * `node --import ./bin/typescript.js bench/financials.ts`: seeds BENCH_FINANCIAL_ENTRIES (default 100,000) entries of one
 * team in bulk SQL, then measures against a running server the CSV and JSON exports of all of them (seconds,
 * bytes, and the server's resident memory sampled while each runs) and an import of 5,000 rows (best of
 * BENCH_IMPORT_RUNS, default 3). BENCH_DATABASE_URL runs it on a scratch PostgreSQL database (the entries
 * are seeded into it); without it, on a fresh embedded database.
 */
const entries = Number(process.env.BENCH_FINANCIAL_ENTRIES ?? 100_000);
const importRuns = Number(process.env.BENCH_IMPORT_RUNS ?? 3);
const IMPORT_ROWS = 5000;
const MiB = 1024 * 1024;

/** The team's entries in one statement: mixed income and expenses, currencies, categories and text. */
async function seed(env: Record<string, string>, teamId: number): Promise<void> {
  const database = await openDatabase(loadConfig({ ...process.env, ...env }));
  try {
    await database.db.execute(sql`
      insert into financial_entries (team_id, is_income, amount, currency, occurred_on, category, description,
        contact_id, status)
      select ${teamId}, g % 3 <> 0, round((1 + (g::bigint * 7919) % 250000) / 100.0, 2),
        (array['EUR', 'EUR', 'EUR', 'USD', 'GBP'])[1 + g % 5],
        date '2030-12-31' - (g % 1500),
        (array['gigs', 'studio', 'merch', 'travel', 'royalties', null])[1 + g % 6],
        'Entry ' || g || case when g % 10 = 0 then ', with "quotes", a comma' else '' end,
        case when g % 4 = 0 then 1 + g % 500 end,
        (array['confirmed', 'confirmed', 'confirmed', 'pending', 'declined', 'lost'])[1 + g % 6]
      from generate_series(1, ${entries}) g`);
    await database.db.execute(sql`analyze financial_entries`);
  } finally {
    await database.close();
  }
}

/** Resident memory of a process in MiB, from /proc (Linux); 0 when unknown. */
function residentMiB(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Downloads an export to nowhere, counting bytes and sampling the server's memory every 20 ms. */
async function measureExport(url: string, token: string, pid: number | undefined) {
  let peak = residentMiB(pid);
  const before = peak;
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentMiB(pid));
  }, 20);
  const started = process.hrtime.bigint();
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok || !res.body) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
    let bytes = 0;
    for await (const chunk of res.body) bytes += (chunk as Uint8Array).byteLength;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { seconds, bytes, before, peak: Math.max(peak, residentMiB(pid)) };
  } finally {
    clearInterval(sampler);
  }
}

async function measureImport(serverUrl: string, token: string, teamId: number): Promise<number> {
  const rows = Array.from({ length: IMPORT_ROWS }, (_, i) => ({
    isIncome: i % 2 === 0,
    amount: Number(((i % 9999) + 0.99).toFixed(2)),
    currency: i % 4 === 0 ? 'USD' : 'EUR',
    occurredOn: `2031-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
    category: `category ${i % 20}`,
    description: `Imported row ${i}`,
    status: i % 5 === 0 ? 'pending' : 'confirmed',
  }));
  const body = JSON.stringify({ teamId, entries: rows });
  const started = process.hrtime.bigint();
  const res = await fetch(`${serverUrl}/api/v1/financials/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  if (res.status !== 201) throw new Error(`import: ${res.status} ${await res.text()}`);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const { imported } = (await res.json()) as { imported: number };
  if (imported !== IMPORT_ROWS) throw new Error(`imported ${imported} rows`);
  return seconds;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tmw-bench-financials-'));
  try {
    await run(dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function run(dataDir: string) {
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', HOST: '127.0.0.1' };
  if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;

  // Seeded before the server starts: the embedded database belongs to one process at a time.
  const email = `bench-financials-${Date.now()}@example.test`;
  tmw(['user', 'create', '--email', email, '--password', 'bench-password'], env);
  const teamId = Number(
    tmw(['team', 'create', '--name', 'Bench financials', '--owner', email, '--plan', 'enterprise'], env),
  );
  const seedStarted = Date.now();
  await seed(env, teamId);
  process.stdout.write(`seeded ${entries} entries in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s\n`);

  const server = await start(buildService(), env, '/api/v1/health');
  try {
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'bench-password' }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const exportUrl = `${server.url}/api/v1/financials/export?teamId=${teamId}`;
    // A first small export warms the route and the database cache, as a running service would be.
    await measureExport(`${exportUrl}&from=2030-12-01`, token, server.child.pid);
    const csv = await measureExport(exportUrl, token, server.child.pid);
    const json = await measureExport(`${exportUrl}&format=json`, token, server.child.pid);
    let importSeconds = Number.POSITIVE_INFINITY;
    for (let run = 0; run < importRuns; run++) {
      importSeconds = Math.min(importSeconds, await measureImport(server.url, token, teamId));
    }

    process.stdout.write(
      `\nfinancials: ${entries} entries of one team, database: ${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}\n\n`,
    );
    process.stdout.write(
      `${'scenario'.padEnd(34)}${'seconds'.padStart(9)}${'MiB'.padStart(9)}${'rows/s'.padStart(10)}${'RSS before'.padStart(12)}${'RSS peak'.padStart(10)}\n`,
    );
    for (const [name, r] of [
      ['export CSV (all entries)', csv],
      ['export JSON (all entries)', json],
    ] as const) {
      process.stdout.write(
        `${name.padEnd(34)}${r.seconds.toFixed(2).padStart(9)}${(r.bytes / MiB).toFixed(1).padStart(9)}${(entries / r.seconds).toFixed(0).padStart(10)}${r.before.toFixed(0).padStart(12)}${r.peak.toFixed(0).padStart(10)}\n`,
      );
    }
    process.stdout.write(
      `${`import ${IMPORT_ROWS} rows (best of ${importRuns})`.padEnd(34)}${importSeconds.toFixed(2).padStart(9)}${''.padStart(9)}${(IMPORT_ROWS / importSeconds).toFixed(0).padStart(10)}\n`,
    );
  } finally {
    await stop(server.child);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `financials bench failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
