/** What the real-time stream carries about threads, in the order CONTRACT.md names them. */
export const CHAT_EVENT_TYPES = [
  'message.created',
  'message.updated',
  'message.deleted',
  'reaction.added',
  'reaction.removed',
  'typing',
  'read',
  'thread.created',
  'thread.updated',
  'thread.deleted',
  'member.added',
  'member.removed',
] as const;
export type ChatEventType = (typeof CHAT_EVENT_TYPES)[number];

/** Events told to one person, about neither a thread nor a session. */
export const PERSONAL_EVENT_TYPES = ['notification.created'] as const;
export type PersonalEventType = (typeof PERSONAL_EVENT_TYPES)[number];

/** Events about the stream itself (no `id:`, so they never move a client's Last-Event-ID). */
export const STREAM_EVENT_TYPES = ['stream.gap', 'stream.reset', 'stream.closed'] as const;

/** Why the service ended a stream (`stream.closed`). */
export type StreamCloseReason = 'shutdown' | 'slow_consumer' | 'session_ended' | 'too_many_streams';

/** Events a resume leaves out: typing is over within seconds, so a replay would only mislead. */
export const EPHEMERAL_EVENT_TYPES: readonly ChatEventType[] = ['typing'];
