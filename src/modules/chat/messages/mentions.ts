import type { ChatMentionKind } from '../../../db/schema/index.ts';

export type ParsedMention = { kind: ChatMentionKind; targetId: string; label: string; position: number };

/** At most this many distinct mentions are kept per message; later ones stay plain text. */
export const MAX_MENTIONS = 50;

// `@[label](kind:id)`: a label of up to 200 characters without `]` or a line break, a UUID or an integer id.
// Linear in the message: an attempt at each `@[` reads at most the bounded label and id after it.
const MENTION =
  /@\[([^\]\r\n]{1,200})\]\((user|track|album|contact):([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[1-9][0-9]{0,9})\)/g;
const UUID = /^[0-9a-fA-F-]{36}$/;
const INT4_MAX = 2_147_483_647;

/**
 * The mentions written in `content`, each target once (the first label counts), in order of appearance.
 * Targets of the wrong shape (a user by number, a track by UUID, an id past int4) are plain text.
 */
export function parseMentions(content: string): ParsedMention[] {
  const found = new Map<string, ParsedMention>();
  for (const match of content.matchAll(MENTION)) {
    const [, label, kind, rawId] = match as unknown as [string, string, ChatMentionKind, string];
    const isUuid = UUID.test(rawId);
    if ((kind === 'user') !== isUuid) continue;
    if (!isUuid && Number(rawId) > INT4_MAX) continue;
    const targetId = isUuid ? rawId.toLowerCase() : rawId;
    const key = `${kind}:${targetId}`;
    if (found.has(key)) continue;
    found.set(key, { kind, targetId, label, position: found.size });
    if (found.size === MAX_MENTIONS) break;
  }
  return [...found.values()];
}
