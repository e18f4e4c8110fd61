import type { Database, Db, Unlisten } from '../../../db/client.ts';
import { DOMAIN_EVENTS_CHANNEL } from '../../../events/event-consumers.ts';
import { lastPosition } from '../../../events/events.repository.ts';
import type { Clock } from '../../../shared/clock.ts';
import { threadAudience } from '../thread-access.ts';
import type { StreamCloseReason } from './event-types.ts';
import {
  activeSessions,
  type StreamEvent,
  sessionEventAudience,
  streamEventsAfter,
} from './events.repository.ts';
import type { SseConnection } from './sse-connection.ts';
import { STREAM_CLOSES_CHANNEL, type StreamSlots } from './stream-slots.ts';

/** Events read per statement. */
const BATCH = 1_000;

export type HubOptions = { heartbeatMs: number; slots?: StreamSlots };
type Log = { warn(details: object, message: string): void };

/**
 * The streams of this process and their one database listener. Every commit of the event log announces its
 * position; the hub then reads the stream events after the last one it dispatched, in position (commit)
 * order, so none committed is missed and each goes out once, in order. Each event goes to the connections of
 * the people who see its thread, or may read its studio session, at that moment (asked of the database for
 * every batch, so a removed member stops at once) and to those it names. Heartbeats keep idle connections
 * open and end streams whose session has ended.
 */
export class ChatEventHub {
  private readonly connections = new Set<SseConnection>();
  private readonly byUser = new Map<string, Set<SseConnection>>();
  /** Connections by their row among every process's streams, for a close asked by another process. */
  private readonly byStream = new Map<number, SseConnection>();
  private listening: Promise<Unlisten> | undefined;
  private listens = 0;
  /** A read is queued and has not started: further notices need no other. */
  private behind = false;
  private dispatching: Promise<void> = Promise.resolve();
  private lastDispatched = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  log: Log | undefined;

  constructor(
    private readonly db: Db,
    private readonly listen: Database['listen'],
    private readonly clock: Clock,
    private readonly options: HubOptions,
  ) {}

  /**
   * Listens for events (once per process) and starts from the log's end, so that a stream opened after this
   * misses nothing.
   */
  async ready(): Promise<void> {
    if (!this.listening) {
      const listening = this.startListening();
      this.listening = listening;
      listening.catch(() => {
        if (this.listening === listening) this.listening = undefined;
      });
    }
    await this.listening;
  }

  private async startListening(): Promise<Unlisten> {
    const events = await this.listen(
      DOMAIN_EVENTS_CHANNEL,
      (payload) => this.notified(payload),
      () => this.listened(),
    );
    try {
      const closes = await this.listen(STREAM_CLOSES_CHANNEL, (payload) =>
        this.byStream.get(Number(payload))?.close('too_many_streams'),
      );
      // The last committed position, not the last given: one given may not be visible yet.
      this.lastDispatched = Math.max(this.lastDispatched, await lastPosition(this.db));
      return async () => {
        await Promise.all([events(), closes()]);
      };
    } catch (error) {
      await events().catch(() => {});
      throw error;
    }
  }

  /** Starts delivering live events to `connection` until it closes. */
  add(connection: SseConnection): void {
    if (this.stopped) {
      connection.close('shutdown');
      return;
    }
    this.connections.add(connection);
    const own = this.byUser.get(connection.userId) ?? new Set();
    own.add(connection);
    this.byUser.set(connection.userId, own);
    if (connection.streamId !== undefined) this.byStream.set(connection.streamId, connection);
    connection.onClose(() => this.remove(connection));
    this.timer ??= setInterval(() => void this.tick(), this.options.heartbeatMs).unref();
  }

  get size(): number {
    return this.connections.size;
  }

  /** Ends every stream (with the reason) and stops listening. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.closeAll('shutdown');
    clearInterval(this.timer);
    this.timer = undefined;
    const listening = this.listening;
    this.listening = undefined;
    await listening?.then((unlisten) => unlisten()).catch(() => {});
    await this.dispatching;
  }

  closeAll(reason: StreamCloseReason): void {
    for (const connection of [...this.connections]) connection.close(reason);
  }

  private remove(connection: SseConnection): void {
    this.connections.delete(connection);
    const own = this.byUser.get(connection.userId);
    own?.delete(connection);
    if (own?.size === 0) this.byUser.delete(connection.userId);
    if (connection.streamId !== undefined) this.byStream.delete(connection.streamId);
    if (this.connections.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** A commit gave `payload` (a position): read on unless this hub has read past it. */
  private notified(payload: string): void {
    const position = Number(payload);
    if (!Number.isSafeInteger(position) || position <= this.lastDispatched) return;
    // Nobody to tell here: what was committed up to now is passed without reading it.
    if (this.connections.size === 0 && !this.behind) {
      this.lastDispatched = position;
      return;
    }
    this.wake();
  }

  /** After a lost listening connection came back: what was committed meanwhile was never notified here. */
  private listened(): void {
    if (this.listens++ > 0) this.wake();
  }

  private wake(): void {
    if (this.behind) return;
    this.behind = true;
    this.enqueue(async () => {
      this.behind = false;
      for (;;) {
        const events = await streamEventsAfter(this.db, this.lastDispatched, BATCH);
        await this.dispatch(events);
        if (events.length < BATCH) return;
      }
    });
  }

  private enqueue(work: () => Promise<void>): void {
    this.dispatching = this.dispatching.then(work).catch((error: unknown) => {
      this.log?.warn({ err: error }, 'chat events could not be delivered');
    });
  }

  /** Delivers `events` (in position order) and moves past them; a failed read is read again at the next wake. */
  private async dispatch(events: StreamEvent[]): Promise<void> {
    if (events.length === 0) return;
    if (this.connections.size > 0) await this.deliver(events);
    this.lastDispatched = Math.max(this.lastDispatched, events[events.length - 1]!.position);
  }

  private async deliver(events: StreamEvent[]): Promise<void> {
    const listeners = [...this.byUser.keys()];
    const threadIds = [...new Set(events.flatMap((e) => (e.threadId === null ? [] : [e.threadId])))];
    const audience = await threadAudience(this.db, threadIds, listeners);
    const seers = new Map<string, string[]>();
    for (const { threadId, userId } of audience)
      seers.set(threadId, [...(seers.get(threadId) ?? []), userId]);
    const sessionEvents = events.filter((e) => e.sessionId !== null).map((e) => e.position);
    for (const { position, userId } of await sessionEventAudience(this.db, sessionEvents, listeners))
      seers.set(`event:${position}`, [...(seers.get(`event:${position}`) ?? []), userId]);
    for (const event of events) {
      const seen = seers.get(event.threadId ?? `event:${event.position}`) ?? [];
      const users = new Set([...seen, ...(event.recipients ?? [])]);
      for (const userId of users) {
        for (const connection of this.byUser.get(userId) ?? []) connection.deliver(event);
      }
    }
  }

  private async tick(): Promise<void> {
    for (const connection of this.connections) connection.heartbeat();
    const sessions = [...new Set([...this.connections].map((c) => c.sessionId))];
    try {
      const active = await activeSessions(this.db, sessions, this.clock.now());
      for (const connection of [...this.connections]) {
        if (!active.has(connection.sessionId)) connection.close('session_ended');
      }
      // Closes asked while a stream was still opening, or whose notice this process missed.
      const gone = (await this.options.slots?.refresh([...this.byStream.keys()])) ?? [];
      for (const id of gone) this.byStream.get(id)?.close('too_many_streams');
    } catch (error) {
      this.log?.warn({ err: error }, 'chat stream sessions could not be checked');
    }
  }
}
