import { growingLru } from '../../shared/growing-lru.ts';
import { singular, type Token, tokenise } from './normalise.ts';
import synonyms from './synonyms.json' with { type: 'json' };
import words from './words.json' with { type: 'json' };

/** The forms a phrase is compared by: its singular words spaced, and run together ("hip hop" / "hiphop"). */
export type PhraseKeys = { key: string; compact: string; size: number };

export function keysOf(tokens: readonly Token[]): PhraseKeys {
  const stems = tokens.map((t) => t.stem);
  return { key: stems.join(' '), compact: stems.join(''), size: tokens.length };
}

// Vocabularies repeat from request to request: their phrases are read once.
const keysCache = growingLru<string, PhraseKeys>({ maxEntries: 20_000 });

export function phraseKeys(text: string): PhraseKeys {
  let keys = keysCache.get(text);
  if (!keys) {
    keys = keysOf(tokenise(text));
    keysCache.set(text, keys);
  }
  return keys;
}

/** Fields whose values have synonym groups in synonyms.json. */
export type SynonymField = keyof typeof synonyms;

type Synonym = PhraseKeys & { text: string };

/** Per field: the synonym groups each phrase (by spaced or compact key) belongs to. */
const groupsByKey = new Map<SynonymField, Map<string, Synonym[][]>>();
for (const [field, groups] of Object.entries(synonyms) as [SynonymField, string[][]][]) {
  const byKey = new Map<string, Synonym[][]>();
  for (const group of groups) {
    const members = group.map((text) => ({ text, ...phraseKeys(text) }));
    for (const { key, compact } of members) {
      for (const k of new Set([key, compact])) byKey.set(k, [...(byKey.get(k) ?? []), members]);
    }
  }
  groupsByKey.set(field, byKey);
}

/** Every way of saying a phrase in this field, the phrase included (empty when no group holds it). */
export function synonymGroupOf(field: SynonymField, keys: PhraseKeys): readonly Synonym[] {
  const byKey = groupsByKey.get(field);
  if (!byKey) return [];
  const groups = [
    ...(byKey.get(keys.key) ?? []),
    ...(keys.compact === keys.key ? [] : (byKey.get(keys.compact) ?? [])),
  ];
  return groups.length === 1 ? groups[0]! : [...new Set(groups.flat())];
}

/** Every other way of saying `text` in this field (empty when no group holds it). */
export function synonymsOf(field: SynonymField, text: string): string[] {
  return synonymGroupOf(field, phraseKeys(text)).map((s) => s.text);
}

export const STOPWORDS: ReadonlySet<string> = new Set(words.stopwords);
/**
 * Words that name nothing a filter holds ("songs", "hits", "vibes", "releases"): dropped rather than
 * searched as text, but unlike stopwords still read as a vocabulary value spelled the same (a tag "hits").
 */
export const FILLERS: ReadonlySet<string> = new Set(words.fillers);
export const CONNECTORS: ReadonlySet<string> = new Set(words.connectors);
/** Words that, right before a year, say the year is the release date rather than name a status. */
export const RELEASE_WORDS: ReadonlySet<string> = new Set(words.releaseWords);
/** Negation cues as token sequences, longest first so "except for" wins over "except". */
export const NEGATION_CUES: readonly string[][] = words.negations
  .map((cue) => tokenise(cue).map((t) => t.norm))
  .sort((a, b) => b.length - a.length);
const CUE_WORDS = new Set(NEGATION_CUES.filter((c) => c.length === 1).map((c) => c[0]!));

/** Words that carry no search meaning of their own; vocabulary entries equal to one need care. */
export function isFunctionWord(norm: string): boolean {
  return STOPWORDS.has(norm) || CUE_WORDS.has(norm);
}

export function isNegationWord(norm: string): boolean {
  return CUE_WORDS.has(norm);
}

/** Function words and fillers: words the lexicon knows, never read as a typo of a vocabulary value. */
export function isLexiconWord(norm: string): boolean {
  return isFunctionWord(norm) || FILLERS.has(norm);
}

/** The generic words of company names ("Records", "Music", "Inc"), as singular stems. */
export const COMPANY_WORDS: ReadonlySet<string> = new Set(words.companyWords.map((w) => singular(w)));

/** Album types and the words that name them ("EP", "LP", "best of"); the plain word "album" names none. */
export const RELEASE_TYPE_FORMS: Readonly<Record<string, readonly string[]>> = words.releaseTypes;

/** Words that mean a tempo without a number ("slow", "uptempo"), with the BPM range each stands for. */
export const TEMPO_WORDS: readonly { range: { min: number | null; max: number | null }; forms: string[] }[] =
  words.tempoWords;
