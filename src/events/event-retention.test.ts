import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestClock, useTestContext } from '../../test/helpers/context.ts';
import { loadConfig } from '../config.ts';
import { domainEvents, eventConsumers } from '../db/schema/index.ts';
import { deleteInBatches } from '../jobs/batched-deletes.ts';
import { deleteEventsBefore, type EventHold } from './event-retention.ts';

const DAY = 24 * 3_600_000;
const clock = new TestClock(Date.parse('2025-03-01T00:00:00.000Z'));
const ctx = useTestContext({ clock, env: { EVENT_RETENTION_DAYS: '2' } });

/** Records `count` events of the team; answers their ids. */
async function recordEvents(teamId: number, count: number, type = 'test.kept'): Promise<string[]> {
  const events = await ctx.database.db.transaction((tx) =>
    ctx.app.services.events.record(
      tx,
      Array.from({ length: count }, (_, i) => ({ type, subject: { type: 'test', id: i }, teamId })),
    ),
  );
  return events.map((e) => e.id);
}

async function idsOf(teamId: number): Promise<string[]> {
  const rows = await ctx.database.db.execute<{ id: string }>(
    sql`select id from ${domainEvents} where team_id = ${teamId} order by position`,
  );
  return (Array.isArray(rows) ? rows : (rows as { rows: { id: string }[] }).rows).map((r) => r.id);
}

describe('retention of the log', () => {
  it('removes events past their days once every reader has passed them, in batches, and keeps held ones', async () => {
    const team = await ctx.newTeam();
    const old = await recordEvents(team.id, 5);
    const held = await recordEvents(team.id, 1, 'test.held');
    clock.advance(2 * DAY + 1);
    const recent = await recordEvents(team.id, 1);
    const before = new Date(clock.now().getTime() - 2 * DAY);
    const holds: EventHold[] = [(id) => sql`${id} = ${held[0]}`];
    const readers = ctx.app.services.eventConsumers.names;

    // The webhooks reader has not read them yet: nothing goes.
    expect(await deleteEventsBefore(ctx.database.db, { before, limit: 100, holds, readers })).toBe(0);
    expect(await idsOf(team.id)).toEqual([...old, ...held, ...recent]);

    await ctx.app.services.eventConsumers.drain();
    const statements: number[] = [];
    const deleted = await deleteInBatches(
      async (limit) => {
        const gone = await deleteEventsBefore(ctx.database.db, { before, limit, holds, readers });
        statements.push(gone);
        return gone;
      },
      { batch: 2, maxBatches: 10 },
    );
    expect(deleted).toBeGreaterThanOrEqual(5);
    expect(statements.every((n) => n <= 2)).toBe(true);
    expect(await idsOf(team.id)).toEqual([...held, ...recent]);
  });

  it('is not held by the position of a consumer the app no longer runs', async () => {
    const team = await ctx.newTeam();
    await ctx.database.db
      .insert(eventConsumers)
      .values({ name: 'retired-reader', position: 0, updatedAt: clock.now() });
    const old = await recordEvents(team.id, 2);
    await ctx.app.services.eventConsumers.drain();
    clock.advance(2 * DAY + 1);
    const before = new Date(clock.now().getTime() - 2 * DAY);
    const readers = ctx.app.services.eventConsumers.names;
    expect(
      await deleteEventsBefore(ctx.database.db, { before, limit: 100, holds: [], readers }),
    ).toBeGreaterThanOrEqual(old.length);
    expect(await idsOf(team.id)).toEqual([]);
    // Named as a reader, the same row holds everything after its position.
    const newer = await recordEvents(team.id, 1);
    clock.advance(2 * DAY + 1);
    const later = new Date(clock.now().getTime() - 2 * DAY);
    const options = { before: later, limit: 100, holds: [] };
    expect(
      await deleteEventsBefore(ctx.database.db, { ...options, readers: [...readers, 'retired-reader'] }),
    ).toBe(0);
    expect(await idsOf(team.id)).toEqual(newer);
  });

  it('runs as a recurring job of the main queue, after EVENT_RETENTION_DAYS', async () => {
    const team = await ctx.newTeam();
    const old = await recordEvents(team.id, 2);
    await ctx.app.services.eventConsumers.drain();
    clock.advance(DAY);
    await ctx.app.services.jobs.runDue();
    expect(await idsOf(team.id)).toEqual(old);
    clock.advance(DAY + 1);
    await ctx.app.services.jobs.runDue();
    expect(await idsOf(team.id)).toEqual([]);
  });

  it('keeps the log at least a day: live streams resume from it for 24 h', () => {
    expect(() => loadConfig({ EVENT_RETENTION_DAYS: '0' })).toThrow(/EVENT_RETENTION_DAYS/);
    expect(loadConfig({}).eventRetentionDays).toBe(30);
    expect(loadConfig({}).webhookDeliveryRetentionDays).toBe(30);
  });
});
