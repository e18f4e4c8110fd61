import { randomUUID } from 'node:crypto';
import type { FileKind } from '../../storage/limits.ts';

/** Everything the client PUTs lands under this prefix until it is registered. */
export const PENDING_PREFIX = 'pending/';

/** Where a client uploads: random, so a key can neither be guessed nor reused. */
export function pendingKeyFor(teamId: number): string {
  return `${PENDING_PREFIX}${teamId}/${randomUUID()}`;
}

/**
 * Where a PUT to `pendingKey` is received before it is published to that key: unique per request, so
 * concurrent PUTs never share one, and under the pending prefix, so the stray sweep removes any left behind.
 */
export function stagingKeyFor(pendingKey: string): string {
  return `${pendingKey}.${randomUUID()}.part`;
}

/** A short, safe extension from the client's file name (`.wav`), or nothing. */
export function extensionOf(fileName: string): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(fileName.trim());
  return match ? `.${match[1]!.toLowerCase()}` : '';
}

/** Where a registered file lives: `teams/12/audio/<uuid>.wav`. */
export function finalKeyFor(teamId: number, kind: FileKind, fileName: string): string {
  return `teams/${teamId}/${kind}/${randomUUID()}${extensionOf(fileName)}`;
}
