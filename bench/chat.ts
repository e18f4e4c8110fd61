import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { api, buildService, start, stop, tmw } from './processes.ts';

/**
 * `node --import ./bin/typescript.js bench/chat.ts`: chat messages and their real-time fan-out, against the compiled service.
 * 1. Messages posted per second: BENCH_CHAT_MESSAGES (default 2,000) through the API, BENCH_CHAT_CONNECTIONS
 *    (default 32) at a time, with no stream open.
 * 2. Memory per idle stream: the server's resident memory before and after opening BENCH_CHAT_CLIENTS
 *    (default 1,000) event streams, spread over BENCH_CHAT_USERS (default 20) members of one team thread.
 * 3. Fan-out latency: BENCH_CHAT_FANOUT (default 50) messages posted one after the other, each waited for on
 *    every stream; latency from sending the POST to each stream receiving the event (p50, p99, max), and from
 *    the POST's answer. Then the same number posted at once (a burst).
 * 4. Messages posted per second with every stream open (each message fanned out to all of them).
 * The streams are read by this one process, so the latencies include its own parsing of every copy.
 * BENCH_DATABASE_URL runs it on a scratch PostgreSQL database; without it, on a fresh embedded database.
 */
const messages = Number(process.env.BENCH_CHAT_MESSAGES ?? 2_000);
const connections = Number(process.env.BENCH_CHAT_CONNECTIONS ?? 32);
const clients = Number(process.env.BENCH_CHAT_CLIENTS ?? 1_000);
const users = Math.max(1, Number(process.env.BENCH_CHAT_USERS ?? 20));
const fanout = Number(process.env.BENCH_CHAT_FANOUT ?? 50);
const PASSWORD = 'bench-password';
const MiB = 1024 * 1024;

/** Resident memory of a process in bytes, from /proc (Linux); 0 when unknown. */
function residentBytes(pid: number | undefined): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** The other members, with the owner's password hash, in one statement (before the server starts). */
async function seedMembers(env: Record<string, string>, teamId: number, ownerEmail: string, stamp: string) {
  const database = await openDatabase(loadConfig({ ...process.env, ...env }));
  try {
    await database.db.execute(sql`
      with added as (
        insert into users (email, password_hash)
        select 'bench-chat-' || g || '-' || ${stamp} || '@example.test',
          (select password_hash from users where email = ${ownerEmail})
        from generate_series(1, ${users - 1}) g
        returning id)
      insert into team_members (team_id, user_id, role) select ${teamId}, id, 'member' from added`);
  } finally {
    await database.close();
  }
}

async function login(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

type Stream = { arrivals: Map<number, number>; opened: Promise<void>; abort: AbortController };

const SEQUENCE = /"content":"bench (\d+)"/g;

/** An event stream that notes when the message `bench <n>` first arrives. */
function openStream(url: string, token: string, onArrival: (n: number) => void): Stream {
  const abort = new AbortController();
  const arrivals = new Map<number, number>();
  const opened = (async () => {
    const res = await fetch(`${url}/api/v1/chat/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: abort.signal,
    });
    if (!res.ok || !res.body) throw new Error(`stream: ${res.status}`);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let tail = '';
    const first = await reader.read();
    tail = decoder.decode(first.value, { stream: true });
    void (async () => {
      try {
        for (;;) {
          const text = tail;
          const at = performance.now();
          let end = 0;
          for (const match of text.matchAll(SEQUENCE)) {
            const n = Number(match[1]);
            if (!arrivals.has(n)) {
              arrivals.set(n, at);
              onArrival(n);
            }
            end = match.index + match[0].length;
          }
          tail = text.slice(Math.max(end, text.length - 64));
          const { value, done } = await reader.read();
          if (done) return;
          tail += decoder.decode(value, { stream: true });
        }
      } catch {
        // aborted at the end
      }
    })();
  })();
  return { arrivals, opened, abort };
}

async function postAll(
  url: string,
  token: string,
  threadId: string,
  from: number,
  count: number,
  parallel: number,
) {
  let next = 0;
  const answered = new Map<number, { sent: number; answered: number }>();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const n = from + next++;
        const sent = performance.now();
        await api(`${url}/api/v1/chat/threads/${threadId}/messages`, token, 'POST', {
          content: `bench ${n}`,
        });
        answered.set(n, { sent, answered: performance.now() });
      }
    }),
  );
  return answered;
}

function line(name: string, values: (string | number)[]) {
  process.stdout.write(`${name.padEnd(44)}${values.map((v) => String(v).padStart(10)).join('')}\n`);
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tmw-bench-chat-'));
  try {
    await run(dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function run(dataDir: string) {
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', HOST: '127.0.0.1' };
  if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const stamp = String(Date.now());
  const ownerEmail = `bench-chat-owner-${stamp}@example.test`;
  tmw(['user', 'create', '--email', ownerEmail, '--password', PASSWORD], env);
  const teamId = Number(tmw(['team', 'create', '--name', 'Bench chat', '--owner', ownerEmail], env));
  if (users > 1) await seedMembers(env, teamId, ownerEmail, stamp);

  const server = await start(buildService(), env, '/api/v1/health');
  const streams: Stream[] = [];
  try {
    const emails = [
      ownerEmail,
      ...Array.from({ length: users - 1 }, (_, i) => `bench-chat-${i + 1}-${stamp}@example.test`),
    ];
    const tokens: string[] = [];
    for (const email of emails) tokens.push(await login(server.url, email));
    const owner = tokens[0]!;
    const thread = await api<{ id: string }>(`${server.url}/api/v1/chat/threads/`, owner, 'POST', {
      type: 'team',
      teamIds: [teamId],
      name: 'bench',
    });

    // 1. Posting alone.
    await postAll(server.url, owner, thread.id, 0, 100, connections);
    let started = performance.now();
    await postAll(server.url, owner, thread.id, 1_000_000, messages, connections);
    const quietRate = messages / ((performance.now() - started) / 1000);

    // 2. Idle streams.
    const rssBefore = residentBytes(server.child.pid);
    let waiting: { n: number; left: number; resolve: () => void } | undefined;
    const onArrival = (n: number) => {
      if (waiting && waiting.n === n && --waiting.left === 0) waiting.resolve();
    };
    for (let i = 0; i < clients; i++)
      streams.push(openStream(server.url, tokens[i % tokens.length]!, onArrival));
    await Promise.all(streams.map((s) => s.opened));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const rssAfter = residentBytes(server.child.pid);

    // 3. Fan-out, one message at a time, each waited for on every stream.
    const fromSend: number[] = [];
    const fromAnswer: number[] = [];
    for (let i = 0; i < fanout; i++) {
      const n = 2_000_000 + i;
      const everywhere = new Promise<void>((resolve) => {
        waiting = { n, left: clients, resolve };
      });
      const sent = performance.now();
      await api(`${server.url}/api/v1/chat/threads/${thread.id}/messages`, owner, 'POST', {
        content: `bench ${n}`,
      });
      const answered = performance.now();
      await everywhere;
      for (const s of streams) {
        const at = s.arrivals.get(n)!;
        fromSend.push(at - sent);
        fromAnswer.push(Math.max(0, at - answered));
      }
    }
    waiting = undefined;
    fromSend.sort((a, b) => a - b);
    fromAnswer.sort((a, b) => a - b);

    // A burst of the same size, posted at once.
    const burstFrom = 3_000_000;
    const burstStarted = performance.now();
    const burstPosts = await postAll(server.url, owner, thread.id, burstFrom, fanout, connections);
    const burstIds = [...burstPosts.keys()];
    while (!streams.every((s) => burstIds.every((n) => s.arrivals.has(n)))) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const burstSeconds = (performance.now() - burstStarted) / 1000;
    const burstLatency = streams
      .flatMap((s) => [...burstPosts].map(([n, t]) => s.arrivals.get(n)! - t.sent))
      .sort((a, b) => a - b);

    // 4. Posting with every stream open.
    started = performance.now();
    const loaded = Math.min(messages, 500);
    await postAll(server.url, owner, thread.id, 4_000_000, loaded, connections);
    const loadedRate = loaded / ((performance.now() - started) / 1000);

    process.stdout.write(
      `\nchat: database ${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; ${clients} streams over ${users} users; ` +
        `${connections} posting connections\n\n`,
    );
    line('scenario', ['count', 'per s', 'p50 ms', 'p99 ms', 'max ms']);
    line('post messages, no streams open', [messages, quietRate.toFixed(0), '', '', '']);
    line(`post messages, ${clients} streams open`, [loaded, loadedRate.toFixed(0), '', '', '']);
    const ms = (v: number) => v.toFixed(1);
    line('fan-out, POST sent -> each stream', [
      fromSend.length,
      '',
      ms(percentile(fromSend, 50)),
      ms(percentile(fromSend, 99)),
      ms(fromSend.at(-1) ?? 0),
    ]);
    line('fan-out, POST answered -> each stream', [
      fromAnswer.length,
      '',
      ms(percentile(fromAnswer, 50)),
      ms(percentile(fromAnswer, 99)),
      ms(fromAnswer.at(-1) ?? 0),
    ]);
    line(`burst of ${fanout}, POST sent -> each stream`, [
      burstLatency.length,
      ((fanout * clients) / burstSeconds).toFixed(0),
      ms(percentile(burstLatency, 50)),
      ms(percentile(burstLatency, 99)),
      ms(burstLatency.at(-1) ?? 0),
    ]);
    process.stdout.write(
      `\nserver RSS ${(rssBefore / MiB).toFixed(1)} MiB before the streams, ${(rssAfter / MiB).toFixed(1)} MiB ` +
        `with ${clients} idle: ${((rssAfter - rssBefore) / clients / 1024).toFixed(1)} KiB per stream\n`,
    );
  } finally {
    for (const s of streams) s.abort.abort();
    await stop(server.child);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`chat bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
