import type { ChatMentionKind, ChatTranscriptStatus } from '../../../db/schema/index.ts';

export type MessageRow = {
  id: string;
  threadId: string;
  authorId: string | null;
  botId: string | null;
  content: string;
  createdAt: Date;
  editedAt: Date | null;
  deletedAt: Date | null;
  voiceFileId: number | null;
  transcriptStatus: ChatTranscriptStatus | null;
  transcript: string | null;
};

/** A voice note as a message shows it (see the voice module). */
export type VoiceView = {
  fileKey: string;
  url: string;
  urlExpiresAt: Date;
  contentType: string;
  durationSeconds: number | null;
  transcript: string | null;
  transcriptStatus: ChatTranscriptStatus | 'none';
};

export type ReactionView = { emoji: string; count: number; me: boolean };
export type MentionView = { kind: ChatMentionKind; id: string; label: string };

/** A message as the API shows it; `reactions` differ per viewer (`me`). */
export type MessageView = {
  id: string;
  threadId: string;
  authorId: string | null;
  botId: string | null;
  content: string | null;
  createdAt: Date;
  editedAt: Date | null;
  deleted: boolean;
  reactions: ReactionView[];
  mentions: MentionView[];
  voice?: VoiceView;
};

export function messageView(
  row: MessageRow,
  reactions: ReactionView[] = [],
  mentions: MentionView[] = [],
  voice?: VoiceView,
): MessageView {
  const deleted = row.deletedAt !== null;
  return {
    id: row.id,
    threadId: row.threadId,
    authorId: row.authorId,
    botId: row.botId,
    content: deleted ? null : row.content,
    createdAt: row.createdAt,
    editedAt: row.editedAt,
    deleted,
    reactions: deleted ? [] : reactions,
    mentions: deleted ? [] : mentions,
    ...(voice && !deleted ? { voice } : {}),
  };
}

/** A message as events carry it to everyone: without reactions, which differ per viewer. */
export function messageEventView(view: MessageView) {
  const { reactions: _, ...shared } = view;
  return shared;
}
