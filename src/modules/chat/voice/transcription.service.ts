import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { type ChatTranscriptStatus, chatMessages } from '../../../db/schema/index.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { JobQueue } from '../../../jobs/job-queue.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { AppError, errors } from '../../../shared/errors.ts';
import type { FilesService } from '../../files/files.service.ts';
import { chatEvents } from '../chat-events.ts';
import type { ChatIds } from '../ids.ts';
import { messageEventView } from '../messages/message-view.ts';
import { findMessage, messageColumns } from '../messages/messages.repository.ts';
import type { ChatMessagesService } from '../messages/messages.service.ts';
import { requireThread } from '../thread-access.ts';
import { type TranscriptionSettings, transcribe } from './transcription-client.ts';
import { type ChatVoiceService, voiceFileOf } from './voice.service.ts';

export const TRANSCRIBE_JOB = 'chat.transcribe';
type TranscribeJob = { threadId: string; messageId: string; jobId: string };

/** Largest voice note sent for transcription (the common providers' own limit). */
const MAX_TRANSCRIBED_BYTES = 25 * 1024 * 1024;
const NOBODY = '00000000-0000-0000-0000-000000000000';

export const transcriptionUnavailable = () =>
  new AppError(
    503,
    'transcription_unavailable',
    'Transcription is not configured on this server (TRANSCRIPTION_URL and TRANSCRIPTION_MODEL)',
  );

const JOB_STATUS: Record<ChatTranscriptStatus, 'queued' | 'succeeded' | 'failed'> = {
  pending: 'queued',
  done: 'succeeded',
  failed: 'failed',
};

type TranscriptRow = {
  id: string;
  threadId: string;
  transcriptJobId: string | null;
  transcriptStatus: ChatTranscriptStatus | null;
  transcript: string | null;
  transcriptError: string | null;
  transcriptRequestedAt: Date | null;
};

function jobView(row: TranscriptRow) {
  return {
    id: row.transcriptJobId!,
    type: 'transcription' as const,
    status: JOB_STATUS[row.transcriptStatus ?? 'pending'],
    threadId: row.threadId,
    messageId: row.id,
    transcript: row.transcriptStatus === 'done' ? row.transcript : null,
    error: row.transcriptStatus === 'failed' ? row.transcriptError : null,
    createdAt: row.transcriptRequestedAt!,
  };
}

const transcriptColumns = {
  id: chatMessages.id,
  threadId: chatMessages.threadId,
  transcriptJobId: chatMessages.transcriptJobId,
  transcriptStatus: chatMessages.transcriptStatus,
  transcript: chatMessages.transcript,
  transcriptError: chatMessages.transcriptError,
  transcriptRequestedAt: chatMessages.transcriptRequestedAt,
};

/** Transcripts of voice notes, written by a queued job that calls the configured provider. */
export class ChatTranscriptionService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      ids: ChatIds;
      events: EventLog;
      jobs: JobQueue;
      files: FilesService;
      messages: ChatMessagesService;
      voice: ChatVoiceService;
      settings: TranscriptionSettings | undefined;
    },
  ) {
    deps.jobs.define<TranscribeJob>(TRANSCRIBE_JOB, (payload) => this.run(payload), { maxAttempts: 3 });
  }

  /** Queues a transcription of the message's voice note (again, replacing an earlier one); the job. */
  async request(principal: Principal, threadId: string, messageId: string, fileKey: string) {
    const { db, clock, ids, jobs, events } = this.deps;
    // Access first: an outsider learns nothing, not even whether transcription is set up.
    const { userId, thread } = await this.deps.voice.requireVoice(principal, threadId, messageId, fileKey);
    if (!this.deps.settings) throw transcriptionUnavailable();
    const jobId = ids.next();
    return this.deps.voice.guard(() =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .update(chatMessages)
          .set({
            transcriptJobId: jobId,
            transcriptStatus: 'pending',
            transcript: null,
            transcriptError: null,
            transcriptRequestedAt: clock.now(),
          })
          .where(eq(chatMessages.id, messageId))
          .returning(transcriptColumns);
        if (!row) throw errors.notFound('message');
        await jobs.enqueue<TranscribeJob>(tx, TRANSCRIBE_JOB, { threadId, messageId, jobId });
        await events.record(
          tx,
          chatEvents({
            actorUserId: userId,
            teamIds: thread.teamIds,
            subjectType: 'chat_message',
            subjectId: messageId,
            type: 'transcription_requested',
            payload: { threadId },
          }),
        );
        return jobView(row);
      }),
    );
  }

  /** The latest transcription job of a message the caller sees. */
  async job(principal: Principal, threadId: string, messageId: string) {
    const { db } = this.deps;
    if (principal.type !== 'session') throw errors.sessionRequired();
    await requireThread(db, principal.userId, threadId);
    const [row] = await db
      .select(transcriptColumns)
      .from(chatMessages)
      .where(and(eq(chatMessages.id, messageId), eq(chatMessages.threadId, threadId)))
      .limit(1);
    if (!row?.transcriptJobId) throw errors.notFound('transcription');
    return jobView(row);
  }

  /** The job: fetches the audio, asks the provider, stores the transcript (or why there is none). */
  private async run({ threadId, messageId, jobId }: TranscribeJob): Promise<void> {
    const { db, files, settings } = this.deps;
    const message = await findMessage(db, threadId, messageId);
    const [current] = await db
      .select({ jobId: chatMessages.transcriptJobId })
      .from(chatMessages)
      .where(eq(chatMessages.id, messageId));
    if (!message || message.deletedAt || current?.jobId !== jobId) return;
    if (!settings)
      return this.finish(message.threadId, messageId, jobId, { ok: false, reason: 'not configured' });
    const file = message.voiceFileId === null ? undefined : await voiceFileOf(db, message.voiceFileId);
    const blob = file ? await files.store.get(file.key) : null;
    if (!file || !blob) {
      return this.finish(threadId, messageId, jobId, { ok: false, reason: 'the voice note is gone' });
    }
    if (blob.size > MAX_TRANSCRIBED_BYTES) {
      blob.stream.destroy();
      return this.finish(threadId, messageId, jobId, {
        ok: false,
        reason: `the voice note is larger than ${MAX_TRANSCRIBED_BYTES} bytes`,
      });
    }
    const chunks: Buffer[] = [];
    for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
    const outcome = await transcribe(settings, {
      bytes: Buffer.concat(chunks),
      fileName: file.originalName,
      contentType: file.contentType,
    });
    await this.finish(threadId, messageId, jobId, outcome);
  }

  private async finish(
    threadId: string,
    messageId: string,
    jobId: string,
    outcome: { ok: true; text: string } | { ok: false; reason: string },
  ): Promise<void> {
    const { db, events, messages } = this.deps;
    await db.transaction(async (tx) => {
      const [row] = await tx
        .update(chatMessages)
        .set(
          outcome.ok
            ? {
                transcriptStatus: 'done',
                transcript: outcome.text.replaceAll('\u0000', '').slice(0, 100_000),
                transcriptError: null,
              }
            : { transcriptStatus: 'failed', transcript: null, transcriptError: outcome.reason },
        )
        .where(and(eq(chatMessages.id, messageId), eq(chatMessages.transcriptJobId, jobId)))
        .returning(messageColumns);
      if (!row || row.deletedAt) return;
      const [view] = await messages.views(tx, [row], NOBODY);
      // Not team activity (the service wrote it): on the stream only.
      await events.record(tx, {
        type: outcome.ok ? 'transcribed' : 'transcription_failed',
        subject: { type: 'chat_message', id: messageId },
        payload: { message: messageEventView(view!) },
        stream: { type: 'message.updated', threadId },
      });
    });
  }
}
