import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { errors } from '../../../shared/errors.ts';
import { requireSession } from '../session-access.ts';
import type { SessionEvents } from '../session-events.ts';
import * as repo from './canvas.repository.ts';
import { MAX_CANVAS_BYTES } from './canvas.schemas.ts';

const VERSION = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/;

/** The version an `If-Match` header names; 428 without one, 400 when it names none. */
export function matchedVersion(header: string | undefined): number {
  if (header === undefined)
    throw errors.preconditionRequired(
      'Send If-Match with the version the change is based on (GET .../canvas answers it)',
    );
  const match = VERSION.exec(header);
  if (!match)
    throw errors.validation([{ path: '/headers/if-match', message: 'must be a canvas version, such as 3' }]);
  return Number(match[1]);
}

/** One shared JSON document per session, written with optimistic concurrency (`If-Match: <version>`). */
export class CanvasService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: SessionEvents,
  ) {}

  async get(principal: Principal, sessionId: number, teamId?: number) {
    await requireSession(this.db, principal, sessionId, 'guest', teamId);
    return (
      (await repo.findCanvas(this.db, sessionId)) ?? {
        version: 0,
        content: {},
        updatedAt: null,
        updatedBy: null,
      }
    );
  }

  /** Replaces the content when the canvas is still at `version`; 409 when another write came first. */
  async put(
    principal: Principal,
    sessionId: number,
    input: { teamId?: number | undefined; content: Record<string, unknown>; ifMatch: string | undefined },
  ) {
    const { session, userId } = await requireSession(this.db, principal, sessionId, 'member', input.teamId);
    const version = matchedVersion(input.ifMatch);
    if (Buffer.byteLength(JSON.stringify(input.content), 'utf8') > MAX_CANVAS_BYTES)
      throw errors.payloadTooLarge(`The canvas content is larger than ${MAX_CANVAS_BYTES / 1024} KiB`);
    return this.db.transaction(async (tx) => {
      const canvas = await repo.writeCanvas(tx, sessionId, version, {
        content: input.content,
        updatedBy: userId,
        now: this.clock.now(),
      });
      if (!canvas)
        throw errors.conflict(
          `The canvas is no longer at version ${version}: another write came first. Read it again and retry`,
        );
      await this.events.record(tx, principal, session, 'canvas.updated', { version: canvas.version });
      return canvas;
    });
  }
}
