import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../../shared/clock.ts';
import type { SessionStreamType } from '../../sessions/session-stream.ts';
import type { ChatEventType, PersonalEventType } from './event-types.ts';

/** The NOTIFY channel that carries the ids of new chat events. */
export const CHAT_EVENTS_CHANNEL = 'chat_events';

export type ChatEventInput =
  | {
      threadId: string;
      type: ChatEventType;
      payload: Record<string, unknown>;
      /** People to tell besides those who see the thread when the event is delivered. */
      recipients?: string[] | undefined;
    }
  /** An event about a studio session, for those who may read it (sessionEventReaderSql). */
  | {
      sessionId: number;
      type: SessionStreamType;
      payload: Record<string, unknown>;
      /** People to tell besides those who may read the session (someone just removed from it). */
      recipients?: string[] | undefined;
    }
  /** An event for its recipients alone. */
  | { type: PersonalEventType; payload: Record<string, unknown>; recipients: string[] };

/**
 * Writes chat events in the transaction of the change they describe and announces each id with
 * `pg_notify`, which PostgreSQL delivers when (and only if) that transaction commits.
 */
export class ChatEventLog {
  constructor(private readonly clock: Clock) {}

  async write(tx: Db, events: ChatEventInput[]): Promise<void> {
    if (events.length === 0) return;
    const now = this.clock.now().toISOString();
    const rows = events.map(
      (e) =>
        sql`(${'threadId' in e ? e.threadId : null}::uuid, ${'sessionId' in e ? e.sessionId : null}::integer,
          ${e.type}, ${JSON.stringify(e.payload)}::jsonb, ${
            e.recipients ? sql`${sql.param(e.recipients)}::uuid[]` : sql`null`
          }, ${now}::timestamptz)`,
    );
    await tx.execute(sql`with written as (
        insert into chat_events (thread_id, session_id, type, payload, recipients, created_at)
        values ${sql.join(rows, sql`, `)} returning id)
      select pg_notify(${CHAT_EVENTS_CHANNEL}, id::text) from written`);
  }
}
