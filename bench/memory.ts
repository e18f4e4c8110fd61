// The embedded service's memory: a first start on an empty data directory (the migrations run) and a later
// start on the same directory, each left idle, as `npm start` runs it. Prints resident memory (VmRSS) after
// the idle wait, the peak (VmHWM) and the time until the health check answers. Linux only (/proc).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildService, start, stop } from './processes.ts';

const IDLE_SECONDS = Number(process.argv[2] ?? 30);
const node = 'node_modules/.bin/node';

function status(pid: number): { rss: number; peak: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)![1]);
  return { rss: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
}

const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

async function run(label: string, dataDir: string, service: string[]): Promise<void> {
  const began = performance.now();
  const { child } = await start(service, { DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, '/api/v1/health', node);
  const ready = performance.now() - began;
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const { rss, peak } = status(child.pid!);
  await stop(child);
  console.log(
    `${label.padEnd(12)} idle RSS ${mb(rss).padStart(7)}   peak ${mb(peak).padStart(7)}   ready in ${(ready / 1000).toFixed(1)} s`,
  );
}

const service = buildService();
const dataDir = mkdtempSync(join(tmpdir(), 'tmw-memory-'));
try {
  console.log(`embedded database, ${IDLE_SECONDS} s idle after the health check answers`);
  await run('first start', dataDir, service);
  await run('later start', dataDir, service);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
