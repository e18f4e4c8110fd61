import { closeSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename } from 'node:path';
import { PRIVATE_FILE_MODE } from '../shared/private-files.ts';

/** Who holds a data directory: written into its lock file, named in the error another process gets. */
export type LockHolder = { pid: number; command: string; startedAt: string; host: string };

/** The embedded database is open in another process: two writers would lose each other's changes. */
export class DataDirLockedError extends Error {
  constructor(
    readonly path: string,
    readonly holder: LockHolder | null,
  ) {
    super(
      holder
        ? `the data directory is in use by ${holder.command} (pid ${holder.pid} on ${holder.host}, since ` +
            `${holder.startedAt}); stop it first, or use PostgreSQL (DATABASE_URL). Lock file: ${path}`
        : `the data directory is being opened by another process; try again. Lock file: ${path}`,
    );
    this.name = 'DataDirLockedError';
  }
}

// The holder touches its lock file this often; a lock left untouched for STALE_AFTER_MS is a dead holder's,
// wherever it ran (a holder on another host, or in a container that is gone, cannot be asked by pid).
const HEARTBEAT_MS = 10_000;
const STALE_AFTER_MS = 60_000;
// A lock file without a holder yet is being written; only one that stays so this long is left over.
const UNWRITTEN_GRACE_MS = 5_000;

/** The locks this process holds, so its own pid in a lock file it does not hold reads as a previous run's. */
const heldHere = new Set<string>();

function readHolder(path: string): { holder: LockHolder | null; text: string; ageMs: number } | null {
  try {
    const text = readFileSync(path, 'utf8');
    const ageMs = Date.now() - statSync(path).mtimeMs;
    try {
      const holder = JSON.parse(text) as LockHolder;
      return { holder: Number.isSafeInteger(holder.pid) ? holder : null, text, ageMs };
    } catch {
      return { holder: null, text, ageMs };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// Linux's clock ticks per second for /proc times (USER_HZ, 100 on every architecture Node runs on).
const USER_HZ = 100;
const START_SLACK_MS = 2_000;

/**
 * Whether the process `pid` started after `time` (so it is another process that reused the holder's pid,
 * as after a container restart); false where /proc cannot tell.
 */
function startedAfter(pid: number, time: string): boolean {
  try {
    const bootSeconds = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const startedMs = bootSeconds * 1000 + (startTicks / USER_HZ) * 1000;
    return Number.isFinite(startedMs) && startedMs > Date.parse(time) + START_SLACK_MS;
  } catch {
    return false;
  }
}

/**
 * Whether the lock's holder is gone. On this host its pid says it: dead, reused by a later process, or this
 * very process without holding it (an earlier run in a container); a holder elsewhere, by its heartbeat.
 */
function stale(found: { holder: LockHolder | null; ageMs: number }, path: string): boolean {
  const { holder, ageMs } = found;
  if (!holder) return ageMs > UNWRITTEN_GRACE_MS;
  if (holder.host !== hostname()) return ageMs > STALE_AFTER_MS;
  if (holder.pid === process.pid) return !heldHere.has(path);
  return !alive(holder.pid) || startedAfter(holder.pid, holder.startedAt);
}

/** Removes the lock file if it still holds `text` (a lock another process just took is kept). */
function removeIfStill(path: string, text: string): void {
  if (readHolder(path)?.text !== text) return;
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Creates the lock file if none exists; answers false when another one is there. */
function create(path: string, holder: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(holder));
  } finally {
    closeSync(fd);
  }
  return true;
}

export type DataDirLock = { release(): void };

/**
 * Takes the lock file `path` for this process, or throws DataDirLockedError naming its holder. A lock whose
 * holder is gone is taken over. The lock is released by `release()` and, failing that, when the process exits.
 */
export function lockDataDir(path: string, command = basename(process.argv[1] ?? 'node')): DataDirLock {
  const holder: LockHolder = {
    pid: process.pid,
    command,
    startedAt: new Date().toISOString(),
    host: hostname(),
  };
  while (!create(path, holder)) {
    const found = readHolder(path);
    if (!found) continue;
    if (!stale(found, path)) throw new DataDirLockedError(path, found.holder);
    removeIfStill(path, found.text);
  }
  heldHere.add(path);
  const heartbeat = setInterval(() => {
    const now = new Date();
    try {
      utimesSync(path, now, now);
    } catch {
      // Gone or taken over: the next opener decides; this process keeps running on what it has.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const release = () => {
    if (!heldHere.delete(path)) return;
    clearInterval(heartbeat);
    process.off('exit', release);
    removeIfStill(path, JSON.stringify(holder));
  };
  process.on('exit', release);
  return { release };
}
