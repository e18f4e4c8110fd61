import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { pipeline, type Readable } from 'node:stream';

/** Why a limited process did not succeed; `stderr` holds the end of its log (for the server log only). */
export class ProcessError extends Error {
  constructor(
    readonly reason: 'timeout' | 'failed' | 'aborted' | 'spawn',
    message: string,
    readonly stderr: string,
    readonly exitCode: number | null = null,
  ) {
    super(message);
    this.name = 'ProcessError';
  }
}

export type ProcessRun = {
  /** Everything written to standard output, when `stdout: 'buffer'`. */
  stdout: Buffer;
  /** The process's log (its tail). */
  stderr: string;
};

export type ProcessOptions = {
  signal?: AbortSignal;
  stdout?: 'buffer' | 'ignore';
  /** Names the program in messages. */
  label?: string;
  /** Streamed to the process's standard input. */
  stdin?: Readable;
};

/** Niceness of every limited process: background work gives way to the API process on a busy machine. */
const BACKGROUND_NICENESS = 10;

/** Only this much of a log is kept (the tail, where errors and filter summaries are). */
const MAX_STDERR_CHARS = 256 * 1024;

/**
 * Runs `command` in its own process group, killed (with everything it started) at `timeoutMs` or when
 * `signal` aborts. Resolves on exit code 0; otherwise rejects with a ProcessError, never leaving a process
 * behind.
 */
export function runLimitedProcess(
  command: { file: string; args: string[] },
  timeoutMs: number,
  options: ProcessOptions = {},
): Promise<ProcessRun> {
  const label = options.label ?? 'The process';
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new ProcessError('aborted', `${label} was not started: the work was cancelled`, ''));
      return;
    }
    const child = spawn(command.file, command.args, {
      stdio: [options.stdin ? 'pipe' : 'ignore', options.stdout === 'buffer' ? 'pipe' : 'ignore', 'pipe'],
      detached: true,
    });
    try {
      if (child.pid !== undefined) setPriority(child.pid, BACKGROUND_NICENESS);
    } catch {
      // Gone already, or not allowed here: it runs at the normal priority.
    }
    // A process that ends early (killed, or done with what it read) closes its input: not an error here.
    if (options.stdin && child.stdin) pipeline(options.stdin, child.stdin, () => {});
    const out: Buffer[] = [];
    let stderr = '';
    let ended: 'timeout' | 'aborted' | undefined;
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.length > 2 * MAX_STDERR_CHARS) stderr = stderr.slice(-MAX_STDERR_CHARS);
    });
    const kill = (why: 'timeout' | 'aborted') => {
      ended ??= why;
      try {
        // The group: a process the child started (FFmpeg under a Node child) goes too.
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => kill('timeout'), timeoutMs);
    const onAbort = () => kill('aborted');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanUp = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error) => {
      cleanUp();
      reject(new ProcessError('spawn', `${label} could not be started: ${error.message}`, stderr));
    });
    child.on('close', (code, signal) => {
      cleanUp();
      const log = stderr.slice(-MAX_STDERR_CHARS);
      if (ended === 'timeout') {
        reject(new ProcessError('timeout', `${label} took longer than ${timeoutMs} ms`, log));
      } else if (ended === 'aborted') {
        reject(new ProcessError('aborted', `${label} was stopped: the work was cancelled`, log));
      } else if (code !== 0) {
        const how = signal ? `signal ${signal}` : `exit code ${code}`;
        reject(new ProcessError('failed', `${label} failed (${how}): ${lastLines(log)}`, log, code));
      } else {
        resolve({ stdout: Buffer.concat(out), stderr: log });
      }
    });
  });
}

/** The last meaningful lines of a log, for an error message. */
export function lastLines(log: string, count = 3): string {
  const lines = log
    .split(/[\r\n]+/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('size=') && !line.startsWith('video:'));
  return lines.slice(-count).join(' | ').slice(0, 500) || 'no output';
}
