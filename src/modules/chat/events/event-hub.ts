import type { Database, Db, Unlisten } from '../../../db/client.ts';
import type { Clock } from '../../../shared/clock.ts';
import { threadAudience } from '../thread-access.ts';
import { CHAT_EVENTS_CHANNEL } from './event-log.ts';
import type { StreamCloseReason } from './event-types.ts';
import {
  activeSessions,
  eventsAfterId,
  eventsByIds,
  type StoredEvent,
  sessionEventAudience,
} from './events.repository.ts';
import type { SseConnection } from './sse-connection.ts';
import { CLOSE_PREFIX, type StreamSlots } from './stream-slots.ts';

/** Event ids loaded per statement. */
const BATCH = 1_000;

export type HubOptions = { heartbeatMs: number; slots?: StreamSlots };
type Log = { warn(details: object, message: string): void };

/**
 * The streams of this process and their one database listener. Each NOTIFY names an event id; ids that
 * arrive together are loaded together, and each event goes to the connections of the people who see its
 * thread, or may read its studio session, at that moment (asked of the database for every batch, so a
 * removed member stops at once) and to those it names. Heartbeats keep idle connections open and end streams whose session has ended.
 */
export class ChatEventHub {
  private readonly connections = new Set<SseConnection>();
  private readonly byUser = new Map<string, Set<SseConnection>>();
  /** Connections by their row among every process's streams, for a close asked by another process. */
  private readonly byStream = new Map<number, SseConnection>();
  private listening: Promise<Unlisten> | undefined;
  private listens = 0;
  private pending: number[] = [];
  private scheduled = false;
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

  /** Listens for events (once per process), so that a stream opened after this misses nothing. */
  async ready(): Promise<void> {
    if (!this.listening) {
      const listening = this.listen(
        CHAT_EVENTS_CHANNEL,
        (payload) => this.notified(payload),
        () => this.listened(),
      );
      this.listening = listening;
      listening.catch(() => {
        if (this.listening === listening) this.listening = undefined;
      });
    }
    await this.listening;
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

  private notified(payload: string): void {
    if (payload.startsWith(CLOSE_PREFIX)) {
      this.byStream.get(Number(payload.slice(CLOSE_PREFIX.length)))?.close('too_many_streams');
      return;
    }
    const id = Number(payload);
    if (!Number.isSafeInteger(id) || id <= 0) return;
    this.pending.push(id);
    if (this.scheduled) return;
    this.scheduled = true;
    // Ids notified in the same turn of the event loop share their statements.
    setImmediate(() => {
      this.scheduled = false;
      const ids = this.pending;
      this.pending = [];
      this.enqueue(() => this.dispatchIds(ids));
    });
  }

  /** After a lost listening connection came back: what was committed meanwhile was never notified here. */
  private listened(): void {
    if (this.listens++ === 0 || this.connections.size === 0) return;
    const since = this.lastDispatched;
    this.enqueue(async () => {
      for (let after = since; ; ) {
        const events = await eventsAfterId(this.db, after, BATCH);
        await this.dispatch(events);
        if (events.length < BATCH) return;
        after = events[events.length - 1]!.id;
      }
    });
  }

  private enqueue(work: () => Promise<void>): void {
    this.dispatching = this.dispatching.then(work).catch((error: unknown) => {
      this.log?.warn({ err: error }, 'chat events could not be delivered');
    });
  }

  private async dispatchIds(ids: number[]): Promise<void> {
    for (const id of ids) if (id > this.lastDispatched) this.lastDispatched = id;
    if (this.connections.size === 0) return;
    for (let start = 0; start < ids.length; start += BATCH) {
      await this.dispatch(await eventsByIds(this.db, ids.slice(start, start + BATCH)));
    }
  }

  private async dispatch(events: StoredEvent[]): Promise<void> {
    if (events.length === 0) return;
    this.lastDispatched = Math.max(this.lastDispatched, events[events.length - 1]!.id);
    if (this.connections.size === 0) return;
    const listeners = [...this.byUser.keys()];
    const threadIds = [...new Set(events.flatMap((e) => (e.threadId === null ? [] : [e.threadId])))];
    const audience = await threadAudience(this.db, threadIds, listeners);
    const seers = new Map<string, string[]>();
    for (const { threadId, userId } of audience)
      seers.set(threadId, [...(seers.get(threadId) ?? []), userId]);
    const sessionEventIds = events.filter((e) => e.sessionId !== null).map((e) => e.id);
    for (const { eventId, userId } of await sessionEventAudience(this.db, sessionEventIds, listeners))
      seers.set(`event:${eventId}`, [...(seers.get(`event:${eventId}`) ?? []), userId]);
    for (const event of events) {
      const seen = seers.get(event.threadId ?? `event:${event.id}`) ?? [];
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
