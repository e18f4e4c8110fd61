import type { Database } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Clock } from '../../shared/clock.ts';
import { ChatComposerService } from './composer/composer.service.ts';
import { ChatEventHub } from './events/event-hub.ts';
import { ChatEventLog } from './events/event-log.ts';
import { ChatEventStreams } from './events/event-streams.ts';
import { defineChatJobs } from './events/events.jobs.ts';
import { ChatIds } from './ids.ts';
import { ChatMessagesService } from './messages/messages.service.ts';
import { ChatThreadStateService } from './thread-state/state.service.ts';
import { ChatThreadMembersService } from './threads/thread-members.service.ts';
import { ChatThreadsService } from './threads/threads.service.ts';

export type ChatStreamSettings = { heartbeatMs: number; maxBufferBytes: number };

/** The services of the chat area, as `services.chat`. */
export function createChatServices(
  database: Pick<Database, 'db' | 'listen'>,
  clock: Clock,
  jobs: JobQueue,
  stream: ChatStreamSettings,
) {
  const { db } = database;
  const ids = new ChatIds(clock);
  const events = new ChatEventLog(clock);
  const messages = new ChatMessagesService(db, clock, ids, events);
  const threads = new ChatThreadsService(db, clock, ids, events, messages);
  const hub = new ChatEventHub(db, database.listen, clock, { heartbeatMs: stream.heartbeatMs });
  defineChatJobs(jobs, db, clock);
  return {
    ids,
    events,
    messages,
    threads,
    members: new ChatThreadMembersService(db, clock, events, threads),
    state: new ChatThreadStateService(db, clock, events, threads),
    composer: new ChatComposerService(db),
    hub,
    streams: new ChatEventStreams(db, hub, { maxBufferBytes: stream.maxBufferBytes }),
    /** Ends every open stream and stops listening (the app's close). */
    close: () => hub.stop(),
  };
}

export type ChatServices = ReturnType<typeof createChatServices>;
