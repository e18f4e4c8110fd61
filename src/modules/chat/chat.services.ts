import type { Database } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { ChatCompletionsSettings } from '../../shared/chat-completions.ts';
import type { Clock } from '../../shared/clock.ts';
import type { FilesService } from '../files/files.service.ts';
import { ChatBotAnswers } from './bots/bot-answers.ts';
import { ChatBotsService } from './bots/bots.service.ts';
import { type DraftInput, writeDraft } from './bots/draft.ts';
import { replyWriter } from './bots/model-text.ts';
import { ChatComposerService } from './composer/composer.service.ts';
import { ChatEventHub } from './events/event-hub.ts';
import { ChatEventStreams } from './events/event-streams.ts';
import { defineChatJobs } from './events/events.jobs.ts';
import { StreamSlots, staleStreamMs } from './events/stream-slots.ts';
import { ChatIds } from './ids.ts';
import { ChatMessagesService } from './messages/messages.service.ts';
import { ChatThreadStateService } from './thread-state/state.service.ts';
import { ChatThreadMembersService } from './threads/thread-members.service.ts';
import { ChatThreadsService } from './threads/threads.service.ts';
import { ChatTranscriptionService } from './voice/transcription.service.ts';
import type { TranscriptionSettings } from './voice/transcription-client.ts';
import { ChatVoiceService } from './voice/voice.service.ts';
import { defineVoiceJobs } from './voice/voice-cleanup.ts';

export type ChatStreamSettings = { heartbeatMs: number; maxBufferBytes: number };

/** The services of the chat area, as `services.chat`; its changes are recorded in `events`. */
export function createChatServices(
  database: Pick<Database, 'db' | 'listen'>,
  clock: Clock,
  events: EventLog,
  jobs: JobQueue,
  stream: ChatStreamSettings,
  media: {
    files: FilesService;
    transcription: TranscriptionSettings | undefined;
    /** The model that writes bot replies and drafts (the AI search model's settings), if any. */
    llm: ChatCompletionsSettings | undefined;
  },
) {
  const { db } = database;
  const ids = new ChatIds(clock);
  const messages = new ChatMessagesService(db, clock, ids, events);
  const threads = new ChatThreadsService(db, clock, ids, events, messages);
  const slots = new StreamSlots(db, clock, staleStreamMs(stream.heartbeatMs));
  const hub = new ChatEventHub(db, database.listen, clock, { heartbeatMs: stream.heartbeatMs, slots });
  defineChatJobs(jobs, db, clock);
  const voice = new ChatVoiceService(db, media.files, messages);
  messages.voice = voice;
  defineVoiceJobs(jobs, db, media.files);
  const transcription = new ChatTranscriptionService({
    db,
    clock,
    ids,
    events,
    jobs,
    messages,
    voice,
    files: media.files,
    settings: media.transcription,
  });
  const bots = new ChatBotsService({ db, clock, ids, events, threads });
  messages.bots = new ChatBotAnswers({
    db,
    clock,
    ids,
    jobs,
    messages,
    events,
    writeReply: replyWriter(media.llm),
  });
  return {
    bots,
    /** Drafts of outreach messages (`POST /follow-ups/draft`). */
    drafts: {
      write: (principal: Principal, input: DraftInput) => writeDraft(db, media.llm, principal, input),
    },
    voice,
    transcription,
    ids,
    messages,
    threads,
    members: new ChatThreadMembersService(db, clock, events, threads),
    state: new ChatThreadStateService(db, clock, events, threads),
    composer: new ChatComposerService(db),
    hub,
    streams: new ChatEventStreams(db, hub, slots, { maxBufferBytes: stream.maxBufferBytes }),
    /** Ends every open stream and stops listening (the app's close). */
    close: () => hub.stop(),
  };
}

export type ChatServices = ReturnType<typeof createChatServices>;
