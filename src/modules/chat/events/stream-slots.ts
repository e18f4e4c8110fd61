import { and, desc, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { chatEventStreams, users } from '../../../db/schema/index.ts';
import type { Clock } from '../../../shared/clock.ts';

/**
 * Event streams one person may hold open at once, over every process: a few browser tabs and devices. Past
 * it the oldest is closed (`stream.closed` with reason too_many_streams), so a reload never locks anyone out.
 */
export const MAX_STREAMS_PER_USER = 5;

/** How long a stream's row counts without its process's heartbeat: a few missed heartbeats, a minute at least. */
export const staleStreamMs = (heartbeatMs: number) => Math.max(60_000, 4 * heartbeatMs);

/** The NOTIFY channel that asks the process holding stream `<id>` (the payload) to close it. */
export const STREAM_CLOSES_CHANNEL = 'chat_stream_closes';

/**
 * The open streams of every process, one row each, so the per-person cap holds when several processes share
 * the database. Processes refresh their rows at each heartbeat; a row not refreshed for `staleMs` (its
 * process died) is not counted.
 */
export class StreamSlots {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly staleMs: number,
  ) {}

  /**
   * Records a new stream of `userId`; past the cap, removes the oldest and asks (NOTIFY, on commit) the
   * processes that hold them to close them. Answers the new stream's id.
   */
  async take(userId: string): Promise<number> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      // One person's streams open one at a time, whatever the process.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
      await tx
        .delete(chatEventStreams)
        .where(
          and(
            eq(chatEventStreams.userId, userId),
            lt(chatEventStreams.seenAt, new Date(now.getTime() - this.staleMs)),
          ),
        );
      const [row] = await tx
        .insert(chatEventStreams)
        .values({ userId, openedAt: now, seenAt: now })
        .returning({ id: chatEventStreams.id });
      const kept = tx
        .select({ id: chatEventStreams.id })
        .from(chatEventStreams)
        .where(eq(chatEventStreams.userId, userId))
        .orderBy(desc(chatEventStreams.id))
        .limit(MAX_STREAMS_PER_USER);
      const evicted = await tx
        .delete(chatEventStreams)
        .where(and(eq(chatEventStreams.userId, userId), notInArray(chatEventStreams.id, kept)))
        .returning({ id: chatEventStreams.id });
      for (const { id } of evicted)
        await tx.execute(sql`select pg_notify(${STREAM_CLOSES_CHANNEL}, ${String(id)})`);
      return row!.id;
    });
  }

  /** Marks this process's streams `ids` as alive; answers those whose rows are gone (closed elsewhere). */
  async refresh(ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const alive = await this.db
      .update(chatEventStreams)
      .set({ seenAt: this.clock.now() })
      .where(inArray(chatEventStreams.id, ids))
      .returning({ id: chatEventStreams.id });
    const found = new Set(alive.map((r) => r.id));
    return ids.filter((id) => !found.has(id));
  }

  async release(id: number): Promise<void> {
    await this.db.delete(chatEventStreams).where(eq(chatEventStreams.id, id));
  }
}
