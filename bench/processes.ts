import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a Node process (of the `node` binary, by default this one) that listens on PORT and waits until `probe` answers. */
export async function start(
  args: string[],
  env: Record<string, string>,
  probe: string,
  node = process.execPath,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(node, args, {
    // A load run sends one person's requests far faster than the per-person budget allows a real client.
    env: { SESSION_RATE_LIMIT_PER_MINUTE: '1000000', ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    const up = await fetch(`${url}${probe}`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${args.join(' ')} did not start`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** The node arguments of the service as `npm start` runs it (the compiled build, built once here). */
export function buildService(): string[] {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  return scripts.start.split(/\s+/).slice(1);
}

/** Runs the `tmw` command with `env` and answers what it printed. */
export function tmw(args: string[], env: Record<string, string>): string {
  return execFileSync(process.execPath, ['bin/tmw.js', ...args], { env: { ...process.env, ...env } })
    .toString()
    .trim();
}

/** One JSON call of the API as `token`; throws on any answer other than 2xx. */
export async function api<T>(url: string, token: string, method: string, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
