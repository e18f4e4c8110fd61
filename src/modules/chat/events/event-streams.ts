import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { sessionOf } from '../../../shared/tenancy.ts';
import type { ChatEventHub } from './event-hub.ts';
import { eventsForUserAfter, keptRange } from './events.repository.ts';
import { SseConnection } from './sse-connection.ts';

/** Missed events read per statement during a resume. */
const REPLAY_BATCH = 500;

export type StreamOptions = { maxBufferBytes: number };

/** Opens event streams: the reply is taken over from Fastify and written as Server-Sent Events. */
export class ChatEventStreams {
  constructor(
    private readonly db: Db,
    private readonly hub: ChatEventHub,
    private readonly options: StreamOptions,
  ) {}

  /**
   * Streams the caller's events: with `lastEventId`, first every kept event after it that they may see now
   * (preceded by `stream.gap` when some of those are no longer kept), then live ones.
   */
  async open(
    request: FastifyRequest,
    reply: FastifyReply,
    principal: Principal,
    lastEventId: number | undefined,
  ): Promise<void> {
    const { userId, sessionId } = sessionOf(principal);
    // Before the reply is taken over, so a database that is down still gets its JSON answer.
    await this.hub.ready();
    reply.hijack();
    const connection = new SseConnection(reply.raw, {
      userId,
      sessionId,
      maxBufferBytes: this.options.maxBufferBytes,
    });
    connection.open({ 'x-request-id': request.id });
    this.hub.add(connection);
    try {
      if (lastEventId !== undefined) await this.replay(connection, lastEventId);
      connection.goLive();
    } catch (error) {
      request.log.warn({ err: error }, 'chat event stream failed while resuming');
      connection.close();
    }
  }

  private async replay(connection: SseConnection, after: number): Promise<void> {
    const kept = await keptRange(this.db);
    const lost = kept.oldest !== null ? after < kept.oldest - 1 : kept.last !== null && after < kept.last;
    if (lost)
      connection.notice('stream.gap', {
        lastEventId: String(after),
        oldestEventId: kept.oldest === null ? null : String(kept.oldest),
      });
    for (let cursor = after; !connection.closed; ) {
      const events = await eventsForUserAfter(this.db, connection.userId, cursor, REPLAY_BATCH);
      await connection.replay(events);
      if (events.length < REPLAY_BATCH) return;
      cursor = events[events.length - 1]!.id;
    }
  }
}
