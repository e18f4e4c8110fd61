import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { inject } from 'vitest';

export type ServerProcess = { url: string; child: ChildProcess; output: () => string };

/** Real argon2id at a test's cost (the configuration takes costs this low only with NODE_ENV=test). */
export const TEST_PASSWORD_HASHING = {
  NODE_ENV: 'test',
  PASSWORD_HASH_MEMORY_KIB: '256',
  PASSWORD_HASH_ITERATIONS: '1',
} as const;

/**
 * Starts the real service as its own process and waits until it listens: `src/server.ts` as the test
 * run's global setup compiled it, hashing passwords at a test's cost unless `env` says otherwise.
 */
export async function startServer(env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, [`${inject('serverBuildDir')}/server.js`], {
    env: {
      ...process.env,
      ...TEST_PASSWORD_HASHING,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), timeoutMs);
    let listening = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // Once listening, the output is only kept: searching all of it again for every request's log line
      // would grow with the square of what the server logs.
      if (listening) return;
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        listening = true;
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return { url, child, output: () => output };
}

/** Sends a signal and waits for the process to end; returns its exit code (null when killed). */
export async function stopServer(server: ServerProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (server.child.exitCode !== null) return server.child.exitCode;
  const exited = once(server.child, 'exit');
  server.child.kill(signal);
  const [code] = await exited;
  return code as number | null;
}
