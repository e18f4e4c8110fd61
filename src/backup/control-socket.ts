import { chmodSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BackupManifest, PreparedBackup } from './backup-archive.ts';

/**
 * The server's control socket under DATA_DIR: `tmw backup` asks the process that holds the embedded
 * database for a backup through it. Only the service's own user can reach it (DATA_DIR and the socket are
 * owner-only), so it needs no other credential, and it never leaves the host.
 */
export const CONTROL_SOCKET = 'control.sock';
// Linux's limit for a socket path (sun_path, 108 bytes with its terminating zero).
const MAX_SOCKET_PATH_BYTES = 107;
const MAX_REQUEST_BYTES = 256;
const BACKUP_REQUEST = 'backup';

/** The first line the server answers: the backup's manifest (its bytes follow), or why there is none. */
type Reply = { ok: true; manifest: BackupManifest } | { ok: false; error: string };

export function controlSocketPath(dataDir: string): string | undefined {
  const path = resolve(dataDir, CONTROL_SOCKET);
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES ? path : undefined;
}

export type ControlSocket = { path: string; close(): void };

/**
 * Listens on `<dataDir>/control.sock` and answers each backup request with `backup()`'s archive, one
 * backup at a time. Answers undefined where DATA_DIR's path is too long for a socket.
 */
export async function openControlSocket(
  dataDir: string,
  backup: () => Promise<PreparedBackup>,
  onError: (error: unknown) => void,
): Promise<ControlSocket | undefined> {
  const path = controlSocketPath(dataDir);
  if (!path) return undefined;
  let running = false;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    void readRequest(socket).then(async (request) => {
      if (request !== BACKUP_REQUEST) return answer(socket, { ok: false, error: 'unknown request' });
      if (running) return answer(socket, { ok: false, error: 'a backup is already running' });
      running = true;
      let prepared: PreparedBackup | undefined;
      try {
        prepared = await backup();
        socket.write(`${JSON.stringify({ ok: true, manifest: prepared.manifest } satisfies Reply)}\n`);
        await pipeline(prepared.stream(), socket);
      } catch (error) {
        onError(error);
        if (prepared) socket.destroy();
        else answer(socket, { ok: false, error: 'the backup failed; see the server log' });
      } finally {
        running = false;
        await prepared?.dispose();
      }
    });
  });
  // The lock on DATA_DIR is held: a socket file there is a previous run's.
  rmSync(path, { force: true });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(path, () => done());
  });
  chmodSync(path, 0o600);
  return {
    path,
    close: () => {
      server.close();
      // A backup being sent is cut short: `tmw backup` sees it incomplete and keeps nothing.
      for (const socket of sockets) socket.destroy();
      rmSync(path, { force: true });
    },
  };
}

function answer(socket: Socket, reply: Reply): void {
  socket.end(`${JSON.stringify(reply)}\n`);
}

/** The request line, or undefined when none comes (or it is too long). */
function readRequest(socket: Socket): Promise<string | undefined> {
  return new Promise((done) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end >= 0 || text.length > MAX_REQUEST_BYTES) {
        socket.off('data', onData);
        socket.pause();
        done(end >= 0 ? text.slice(0, end) : undefined);
      }
    };
    socket.on('data', onData);
    socket.once('end', () => done(undefined));
  });
}

/** The server could not be reached on its socket, or answered that it cannot make a backup. */
export class ControlSocketError extends Error {}

/**
 * Asks the server holding `dataDir` for a backup: answers its manifest and the archive's bytes as they come
 * (their end is checked by whoever stores them).
 */
export function requestBackup(dataDir: string): Promise<{ manifest: BackupManifest; archive: Socket }> {
  const path = controlSocketPath(dataDir);
  if (!path)
    return Promise.reject(new ControlSocketError('the data directory path is too long for its socket'));
  return new Promise((done, fail) => {
    const socket = createConnection(path);
    let header = Buffer.alloc(0);
    socket.once('error', (error) =>
      fail(
        new ControlSocketError(
          `cannot reach ${path} (${(error as NodeJS.ErrnoException).code ?? error.message})`,
        ),
      ),
    );
    const onData = (chunk: Buffer) => {
      header = Buffer.concat([header, chunk]);
      const end = header.indexOf(0x0a);
      if (end < 0) return;
      socket.off('data', onData);
      socket.pause();
      let reply: Reply;
      try {
        reply = JSON.parse(header.subarray(0, end).toString('utf8')) as Reply;
      } catch {
        socket.destroy();
        return fail(new ControlSocketError('the server answered something unreadable'));
      }
      if (!reply.ok) {
        socket.destroy();
        return fail(new ControlSocketError(`the server cannot make a backup: ${reply.error}`));
      }
      const rest = header.subarray(end + 1);
      if (rest.length > 0) socket.unshift(rest);
      done({ manifest: reply.manifest, archive: socket });
    };
    socket.on('data', onData);
    socket.once('end', () => fail(new ControlSocketError('the server closed the socket without an answer')));
    socket.once('connect', () => socket.write(`${BACKUP_REQUEST}\n`));
  });
}
