import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { files as filesTable, pendingUploads } from '../../../db/schema/index.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { errors } from '../../../shared/errors.ts';
import { sessionUserId } from '../../../shared/tenancy.ts';
import { ticketTransfer } from '../../files/file-view.ts';
import { findPendingById } from '../../files/files.repository.ts';
import type { FileOwner, FilesService } from '../../files/files.service.ts';
import { resolveMediaType } from '../../files/media-type.ts';
import { goneAsNotFound } from '../gone-as-not-found.ts';
import type { MessageRow, MessageView, VoiceView } from '../messages/message-view.ts';
import { findMessage } from '../messages/messages.repository.ts';
import type { AfterPost, ChatMessagesService, MessageVoice } from '../messages/messages.service.ts';
import { requireThread, type ThreadAccess } from '../thread-access.ts';

/** What voice notes are owned by in the files area: the thread they were recorded for. */
export const VOICE_OWNER = 'chat_voice';
export const voiceOwner = (threadId: string): FileOwner => ({ type: VOICE_OWNER, id: threadId });

/** The team whose storage holds a thread's voice notes: its first (lowest id) team. */
export function voiceTeamOf(thread: Pick<ThreadAccess, 'teamIds'>): number {
  const teamId = thread.teamIds[0];
  if (teamId === undefined) throw errors.notFound('chat thread');
  return teamId;
}

export type VoiceFile = {
  id: number;
  teamId: number;
  key: string;
  originalName: string;
  contentType: string;
};

/**
 * Voice notes of chat messages: the upload ticket, the message that registers the upload (quota, audio
 * facts) and the voice view every message with one shows.
 */
export class ChatVoiceService implements MessageVoice {
  constructor(
    readonly db: Db,
    private readonly files: FilesService,
    private readonly messages: ChatMessagesService,
  ) {}

  /**
   * An upload URL for a voice note of the thread (audio types only, the audio file limits). Its `fileKey` is
   * the key the note keeps once posted (the message's `voice.fileKey`), so one key names the note throughout:
   * in POST .../messages, transcribe and save-voice.
   */
  async uploadUrl(principal: Principal, threadId: string, input: { fileName: string; contentType: string }) {
    const userId = sessionUserId(principal);
    const thread = await requireThread(this.db, userId, threadId);
    const type = resolveMediaType(input.contentType, '/body/contentType');
    if (type.kind !== 'audio')
      throw errors.unsupportedFileType(`A voice note is audio (audio/*), not ${input.contentType}`);
    const teamId = voiceTeamOf(thread);
    const ticket = await this.files.createUploadUrl({
      teamId,
      kind: 'audio',
      fileName: input.fileName.trim(),
      contentType: type.contentType,
      owner: voiceOwner(thread.id),
      createdBy: userId,
    });
    const { key } = ticket;
    const pending = await findPendingById(this.db, teamId, ticket.fileId);
    const fileKey = pending?.finalKey ?? key;
    return { ...ticketTransfer(ticket), fileKey, contentType: ticket.contentType };
  }

  /** The message with its voice note: registering the upload and writing the message commit together. */
  async post(
    thread: ThreadAccess,
    userId: string,
    content: string,
    fileKey: string,
    then: AfterPost,
  ): Promise<MessageView> {
    const teamId = voiceTeamOf(thread);
    const prepared = await this.files.prepareRegistration({
      teamId,
      key: await uploadKeyOf(this.db, teamId, fileKey),
      owner: voiceOwner(thread.id),
      kind: 'audio',
      createdBy: userId,
    });
    return this.files.commitRegistration(prepared, async (tx) => {
      const file = await this.files.completeRegistration(tx, prepared);
      const message = await this.messages.post(tx, thread, { userId }, content, { voiceFileId: file.id });
      await then(tx, message);
      return message;
    });
  }

  async views(db: Db, rows: MessageRow[]): Promise<Map<string, VoiceView>> {
    const byId = await voiceFilesOf(
      db,
      rows.map((r) => r.voiceFileId).filter((id): id is number => id !== null),
    );
    const views = new Map<string, VoiceView>();
    for (const row of rows) {
      const file = row.voiceFileId === null ? undefined : byId.get(row.voiceFileId);
      if (!file) continue;
      const link = await this.files.downloadUrl(file, { disposition: 'inline' });
      views.set(row.id, {
        fileKey: file.key,
        url: link.url,
        urlExpiresAt: link.expiresAt,
        contentType: file.contentType,
        durationSeconds: file.durationSeconds,
        transcript: row.transcript,
        transcriptStatus: row.transcriptStatus ?? 'none',
      });
    }
    return views;
  }

  /** The voice file of a message the caller sees, checked against the `fileKey` the client names. */
  async requireVoice(principal: Principal, threadId: string, messageId: string, fileKey: string) {
    const userId = sessionUserId(principal);
    const thread = await requireThread(this.db, userId, threadId);
    const message = await findMessage(this.db, threadId, messageId);
    if (!message) throw errors.notFound('message');
    if (message.deletedAt) throw errors.conflict('This message was deleted');
    const file = message.voiceFileId === null ? undefined : await voiceFileOf(this.db, message.voiceFileId);
    if (!file || file.key !== fileKey) throw errors.notFound('voice note');
    return { userId, thread, message, file };
  }

  /** Runs `work` and maps a thread deleted meanwhile to 404. */
  guard<T>(work: () => Promise<T>): Promise<T> {
    return goneAsNotFound('chat thread', work);
  }
}

/**
 * The key of the upload a voice note is registered from, named by either of its keys: the one it is PUT to
 * (what voice-upload answered before it answered the note's own) or the one the note keeps.
 */
async function uploadKeyOf(db: Db, teamId: number, fileKey: string): Promise<string> {
  const [row] = await db
    .select({ key: pendingUploads.key })
    .from(pendingUploads)
    .where(
      sql`${pendingUploads.teamId} = ${teamId} and (${pendingUploads.key} = ${fileKey} or ${pendingUploads.finalKey} = ${fileKey})`,
    )
    .limit(1);
  return row?.key ?? fileKey;
}

type VoiceFileRow = VoiceFile & { durationSeconds: number | null };

async function voiceFilesOf(db: Db, ids: number[]): Promise<Map<number, VoiceFileRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: filesTable.id,
      teamId: filesTable.teamId,
      key: filesTable.key,
      originalName: filesTable.originalName,
      contentType: filesTable.contentType,
      durationSeconds: sql<number | null>`(${filesTable.audio} ->> 'durationSeconds')::float8`,
    })
    .from(filesTable)
    .where(sql`${filesTable.id} = any(${sql.param(ids)}::int[])`);
  return new Map(rows.map((r) => [r.id, r]));
}

export async function voiceFileOf(db: Db, fileId: number): Promise<VoiceFileRow | undefined> {
  return (await voiceFilesOf(db, [fileId])).get(fileId);
}
