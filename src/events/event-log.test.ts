import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../test/helpers/context.ts';
import { domainEvents } from '../db/schema/index.ts';
import { systemClock } from '../shared/clock.ts';
import { EventConsumers, type PositionConsumer } from './event-consumers.ts';
import { EventLog, type RecordedEvent } from './event-log.ts';
import { eventsAfter, type LoggedEvent, lastPosition } from './events.repository.ts';

const ctx = useTestContext();
const subject = { type: 'test', id: 1 };

/** Resolves when `check` holds, asked again at each turn. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('the event log', () => {
  it('gives positions at commit, none to a transaction that rolled back', async () => {
    const log = new EventLog(systemClock);
    const before = await lastPosition(ctx.database.db);
    await ctx.database.db.transaction(async (tx) => {
      const [event] = await log.record(tx, { type: 'test.first', subject });
      const [row] = await tx.select().from(domainEvents).where(eq(domainEvents.id, event!.id));
      expect(row?.position).toBeNull();
    });
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await log.record(tx, { type: 'test.rolled-back', subject });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await log.record(ctx.database.db, [
      { type: 'test.second', subject },
      { type: 'test.third', subject },
    ]);
    const events = await eventsAfter(ctx.database.db, before, 10);
    expect(events.map((e) => e.type)).toEqual(['test.first', 'test.second', 'test.third']);
    expect(events[1]!.position).toBeGreaterThan(events[0]!.position);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'orders by commit: a transaction that recorded first and committed last comes last',
    async () => {
      const log = new EventLog(systemClock);
      const before = await lastPosition(ctx.database.db);
      let recordedEarly = false;
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const early = ctx.database.db.transaction(async (tx) => {
        await log.record(tx, { type: 'test.recorded-first', subject });
        recordedEarly = true;
        await held;
      });
      await until(() => recordedEarly);
      await log.record(ctx.database.db, { type: 'test.committed-first', subject });
      expect((await eventsAfter(ctx.database.db, before, 10)).map((e) => e.type)).toEqual([
        'test.committed-first',
      ]);
      release();
      await early;
      expect((await eventsAfter(ctx.database.db, before, 10)).map((e) => e.type)).toEqual([
        'test.committed-first',
        'test.recorded-first',
      ]);
    },
  );

  it('hands each event to the consumers of its transaction, which may record more', async () => {
    const seen: string[] = [];
    const log = new EventLog(systemClock, [
      async (tx, events: RecordedEvent[], self) => {
        seen.push(...events.map((e) => e.type));
        const echoes = events.filter((e) => e.type === 'test.said');
        await self.record(
          tx,
          echoes.map((e) => ({ type: 'test.echoed', subject: { type: 'test', id: e.id } })),
        );
      },
    ]);
    await log.record(ctx.database.db, { type: 'test.said', subject, payload: { words: 'hello' } });
    expect(seen).toEqual(['test.said', 'test.echoed']);
  });
});

describe('consumers that keep a position', () => {
  it('handle every committed event once, in order, across two readers of one database', async () => {
    const log = new EventLog(systemClock);
    const handled: LoggedEvent[] = [];
    const consumer = (): PositionConsumer => ({
      name: `test-${process.pid}-${Date.now()}`,
      batch: 3,
      handle: async (_tx, events) => {
        handled.push(...events.filter((e) => e.type === 'test.counted'));
      },
    });
    const shared = consumer();
    const readers = [1, 2].map(
      () => new EventConsumers(ctx.database.db, ctx.database.listen, systemClock, [shared], { pollMs: 50 }),
    );
    await Promise.all(readers.map((r) => r.start()));
    try {
      for (let i = 0; i < 20; i++) {
        await log.record(ctx.database.db, { type: 'test.counted', subject, payload: { i } });
      }
      await until(() => handled.length >= 20);
      await Promise.all(readers.map((r) => r.drain()));
      expect(handled.map((e) => e.payload.i)).toEqual([...Array(20).keys()]);
      const positions = handled.map((e) => e.position);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    } finally {
      await Promise.all(readers.map((r) => r.stop()));
    }
  });
});
