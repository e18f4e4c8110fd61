import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { sessionOf } from '../../../shared/tenancy.ts';
import type { ChatEventHub } from './event-hub.ts';
import {
  countStreamEventsForUserAfter,
  lastGiven,
  streamEventsForUserAfter,
  streamGapAfter,
} from './events.repository.ts';
import { SseConnection } from './sse-connection.ts';
import type { StreamSlots } from './stream-slots.ts';

/** Missed events read per statement during a resume. */
const REPLAY_BATCH = 500;
/**
 * Missed events a resume replays at most: past it, `stream.reset` tells the client to load its threads again
 * instead, so a client away for long never pulls (nor makes the service hold) an unbounded backlog.
 */
export const MAX_REPLAY_EVENTS = 1_000;

export type StreamOptions = { maxBufferBytes: number };

function replyHeaders(reply: FastifyReply): Record<string, string | number | string[]> {
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) headers[name] = value;
  return headers;
}

/** Opens event streams: the reply is taken over from Fastify and written as Server-Sent Events. */
export class ChatEventStreams {
  constructor(
    private readonly db: Db,
    private readonly hub: ChatEventHub,
    private readonly slots: StreamSlots,
    private readonly options: StreamOptions,
  ) {}

  /**
   * Streams the caller's events: with `lastEventId`, first every kept event after it that they may see now
   * (preceded by `stream.gap` when some of those are no longer kept; only `stream.reset` when they are more
   * than `MAX_REPLAY_EVENTS`), then live ones. The caller's oldest stream past the cap is closed.
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
    const streamId = await this.slots.take(userId);
    reply.hijack();
    const connection = new SseConnection(reply.raw, {
      userId,
      sessionId,
      streamId,
      maxBufferBytes: this.options.maxBufferBytes,
    });
    connection.onClose(() => {
      // Left behind, the row would only count until it goes stale.
      this.slots.release(streamId).catch((error: unknown) => {
        request.log.warn({ err: error }, 'a closed chat event stream could not be released');
      });
    });
    // Headers the hooks set on the reply (CORS, rate limits, trace context) go out with the stream's head.
    connection.open({ ...replyHeaders(reply), 'x-request-id': request.id });
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
    const { userId } = connection;
    // An id this log never gave (from before the stream moved onto it, or another installation) resumes nothing.
    const unknown = after > (await lastGiven(this.db));
    if (!unknown) connection.resumeAfter(after);
    if (
      unknown ||
      (await countStreamEventsForUserAfter(this.db, userId, after, MAX_REPLAY_EVENTS + 1)) > MAX_REPLAY_EVENTS
    ) {
      connection.notice('stream.reset', { lastEventId: String(after), maxReplayEvents: MAX_REPLAY_EVENTS });
      return;
    }
    const gap = await streamGapAfter(this.db, after);
    if (gap.lost)
      connection.notice('stream.gap', {
        lastEventId: String(after),
        oldestEventId: gap.oldest === null ? null : String(gap.oldest),
      });
    // Events committed after the count are held for the stream as live ones: no more than the count is read.
    for (let cursor = after, read = 0; !connection.closed && read < MAX_REPLAY_EVENTS; ) {
      const batch = Math.min(REPLAY_BATCH, MAX_REPLAY_EVENTS - read);
      const events = await streamEventsForUserAfter(this.db, userId, cursor, batch);
      await connection.replay(events);
      read += events.length;
      if (events.length < batch) return;
      cursor = events[events.length - 1]!.position;
    }
  }
}
