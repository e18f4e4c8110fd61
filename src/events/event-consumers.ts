import type { Database, Db, DbTransaction, Unlisten } from '../db/client.ts';
import type { Clock } from '../shared/clock.ts';
import {
  advanceConsumer,
  claimConsumer,
  eventsAfter,
  type LoggedEvent,
  lastPosition,
} from './events.repository.ts';

/** The NOTIFY channel on which every commit announces the positions it was given (migration 0043). */
export const DOMAIN_EVENTS_CHANNEL = 'domain_events';

/**
 * A reader of the log that keeps its own position: `handle` gets the next events in commit order, in the
 * transaction that then moves its position past them, so each event is handled once even across processes
 * and crashes. A new consumer starts at the end of the log (`fromStart`: at its beginning).
 */
export type PositionConsumer = {
  name: string;
  handle(tx: DbTransaction, events: LoggedEvent[]): Promise<void>;
  /** Events per transaction (default 200). */
  batch?: number;
  fromStart?: boolean;
};

type Log = { warn(details: object, message: string): void };

export type EventConsumersOptions = {
  /** A poll besides the notices, for one lost with a connection (default 5 s). */
  pollMs?: number;
  log?: Log;
};

/**
 * Runs the position consumers of this process: woken by every commit's notice (from any process), one run at a
 * time per consumer here, and per consumer across processes by the lock on its row.
 */
export class EventConsumers {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private unlisten: Unlisten | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  log: Log | undefined;

  constructor(
    private readonly db: Db,
    private readonly listen: Database['listen'],
    private readonly clock: Clock,
    private readonly consumers: readonly PositionConsumer[],
    private readonly options: EventConsumersOptions = {},
  ) {
    this.log = options.log;
  }

  /** The names of the consumers this process runs. */
  get names(): string[] {
    return this.consumers.map((c) => c.name);
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.unlisten = await this.listen(
      DOMAIN_EVENTS_CHANNEL,
      () => this.wake(),
      () => this.wake(),
    );
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? 5_000).unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.unlisten?.().catch(() => {});
    this.unlisten = undefined;
    await Promise.all(this.running.values());
  }

  /** Reads on for every consumer until each has caught up with what is committed now. */
  async drain(): Promise<void> {
    for (const consumer of this.consumers) {
      await this.running.get(consumer.name);
      while ((await this.runOnce(consumer)) > 0);
    }
  }

  private wake(): void {
    for (const consumer of this.consumers) this.run(consumer);
  }

  private run(consumer: PositionConsumer): void {
    if (this.running.has(consumer.name)) {
      this.again.add(consumer.name);
      return;
    }
    const work = (async () => {
      try {
        do {
          this.again.delete(consumer.name);
          while (!this.stopped && (await this.runOnce(consumer)) > 0);
        } while (!this.stopped && this.again.has(consumer.name));
      } catch (error) {
        this.log?.warn(
          { err: error, consumer: consumer.name },
          'event consumer failed; retried at the next wake',
        );
      } finally {
        this.running.delete(consumer.name);
      }
    })();
    this.running.set(consumer.name, work);
  }

  /** One batch for `consumer`; answers how many events it handled (0 when caught up or held elsewhere). */
  private runOnce(consumer: PositionConsumer): Promise<number> {
    return this.db.transaction(async (tx) => {
      const start = async () => (consumer.fromStart ? 0 : lastPosition(tx));
      const position = await claimConsumer(tx, consumer.name, start);
      if (position === null) return 0;
      const events = await eventsAfter(tx, position, consumer.batch ?? 200);
      if (events.length === 0) return 0;
      await consumer.handle(tx, events);
      await advanceConsumer(tx, consumer.name, events[events.length - 1]!.position, this.clock.now());
      return events.length;
    });
  }
}
