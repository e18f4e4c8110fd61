/** What the one search finds, in the order the API lists them. */
export const SEARCH_KINDS = [
  'track',
  'album',
  'comment',
  'todo',
  'message',
  'transcript',
  'contact',
  'session',
  'interview',
] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/**
 * The kinds a team API key reads (its own team's): those whose areas take keys. Chat (messages and their
 * transcripts), studio sessions and interviews are session-only areas, so a key never searches them.
 */
export const KEY_KINDS: readonly SearchKind[] = ['track', 'album', 'comment', 'todo', 'contact'];

/** Kinds whose ids are UUIDs (chat messages); every other kind has integer ids. */
export const UUID_KINDS: readonly SearchKind[] = ['message', 'transcript'];

/**
 * How much a match of each kind counts, times its rank. Titles and names already outweigh bodies inside
 * each kind (see RANK_WEIGHTS); these set kinds against each other: what people look for by name first,
 * then what was said about it.
 */
export const KIND_WEIGHTS: Record<SearchKind, number> = {
  track: 1,
  album: 1,
  contact: 0.9,
  session: 0.8,
  interview: 0.8,
  comment: 0.8,
  todo: 0.8,
  message: 0.7,
  transcript: 0.6,
};

/** ts_rank weights for {D, C, B, A}: bodies, long text (lyrics), catalogue fields, titles and names. */
export const RANK_WEIGHTS = '{0.2, 0.4, 0.7, 1.0}';

/** Where a hit lives in the API: the parents a kind's address needs. */
export type HitParents = { trackId: number | null; versionId: number | null; threadId: string | null };

/** The address of the API resource a hit is (or, for comments, to-dos and messages, the list it is in). */
export function linkOf(kind: SearchKind, id: number | string, parents: HitParents): string {
  const version = `/api/v1/tracks/${parents.trackId}/versions/${parents.versionId}`;
  const thread = `/api/v1/chat/threads/${parents.threadId}`;
  switch (kind) {
    case 'track':
      return `/api/v1/tracks/${id}`;
    case 'album':
      return `/api/v1/albums/${id}`;
    case 'comment':
      return `${version}/comments`;
    case 'todo':
      return `${version}/todos`;
    case 'message':
      return `${thread}/messages`;
    case 'transcript':
      return `${thread}/messages/${id}/transcription`;
    case 'contact':
      return `/api/v1/contacts/${id}`;
    case 'session':
      return `/api/v1/sessions/${id}`;
    case 'interview':
      return `/api/v1/interviews/${id}`;
  }
}
