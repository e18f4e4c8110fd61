/** Letters NFD does not decompose but the database folds (see tmw_fold in the migrations). */
const SPECIAL: Record<string, string> = {
  ß: 's',
  ø: 'o',
  đ: 'd',
  ł: 'l',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  æ: 'a',
  œ: 'o',
  ð: 'd',
  þ: 't',
};

const WORD = /[\p{L}\p{N}]/u;

/** Folds one character the way the database folds text: no diacritics, lower case. */
function foldChar(c: string): string {
  // ASCII has neither accents nor special letters.
  if (c.length === 1 && c.charCodeAt(0) < 0x80) return c.toLowerCase();
  const lower = c.toLowerCase();
  return SPECIAL[lower] ?? lower.normalize('NFD').charAt(0);
}

/** The words of a search query, at most `max`. */
export function searchTerms(q: string, max = 10): string[] {
  return q
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, max);
}

/** A to_tsquery text matching every term (or, with `|`, any term) as a word prefix. Terms hold letters and digits only. */
export function prefixQuery(terms: string[], operator: '&' | '|' = '&'): string {
  return terms.map((t) => `${t}:*`).join(` ${operator} `);
}

export type Highlight = { start: number; length: number };

const SURROGATE = /[\uD800-\uDFFF]/;
const NOT_ASCII = /[^\p{ASCII}]/u;

/** Whether the code unit at `i` (not half of a surrogate pair) is a letter or a digit. */
function isWordUnit(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c >= 0x80) return WORD.test(text[i]!);
  const lower = c | 0x20;
  return (c >= 0x30 && c <= 0x39) || (lower >= 0x61 && lower <= 0x7a);
}

type Match = { start: number; end: number };

/** The end of the word that starts at `start`. */
function wordEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length && isWordUnit(text, i)) i++;
  return i;
}

/**
 * Words of an ASCII text starting with a folded term, up to `after` units past the first: the text in
 * lower case is searched for each term, and an occurrence counts where a word starts.
 */
function asciiMatches(text: string, foldedTerms: string[], after: number): Match[] {
  const lower = text.toLowerCase();
  const starts: number[] = [];
  for (const term of foldedTerms) {
    for (let at = lower.indexOf(term); at >= 0; at = lower.indexOf(term, at + 1))
      if (at === 0 || !isWordUnit(text, at - 1)) starts.push(at);
  }
  starts.sort((a, b) => a - b);
  const matches: Match[] = [];
  for (const start of starts) {
    if (matches.length > 0 && (start === matches.at(-1)!.start || start >= matches[0]!.start + after))
      continue;
    matches.push({ start, end: wordEnd(text, start) });
  }
  return matches;
}

/** Words of a text without surrogate pairs starting with a folded term, read word by word. */
function unitMatches(text: string, foldedTerms: string[], after: number): Match[] {
  const startsWith = (i: number, term: string) => {
    for (let k = 0; k < term.length; k++)
      if (i + k >= text.length || foldChar(text[i + k]!) !== term[k]) return false;
    return true;
  };
  const matches: Match[] = [];
  // Read up to the end of the window, once the first match has placed it.
  let end = text.length;
  for (let i = 0; i < end; ) {
    while (i < end && !isWordUnit(text, i)) i++;
    const start = i;
    i = wordEnd(text, i);
    if (i > start && start < end && foldedTerms.some((t) => startsWith(start, t))) {
      if (matches.length === 0) end = Math.min(text.length, start + after);
      matches.push({ start, end: i });
    }
  }
  return matches;
}

/**
 * A window of `text` around the first word starting with a term, and the words there that start with
 * any term (offsets into the snippet). Matching ignores case and accents, like the search itself. The
 * window counts characters (code points); highlights count UTF-16 code units, as JavaScript strings do.
 */
export function snippetOf(text: string, terms: string[], before = 60, after = 140) {
  // Without surrogate pairs every code point is one code unit: the text is read as it is.
  if (SURROGATE.test(text)) return snippetOfCodePoints(text, terms, before, after);
  // Every folded character is one code unit.
  const foldedTerms = terms.map((t) => [...t].map(foldChar).join(''));
  const matches = NOT_ASCII.test(text)
    ? unitMatches(text, foldedTerms, after)
    : asciiMatches(text, foldedTerms, after);
  const first = matches[0]?.start ?? 0;
  const from = Math.max(0, first - before);
  const to = Math.min(text.length, first + after);
  const prefix = from > 0 ? '…' : '';
  const snippet = prefix + text.slice(from, to) + (to < text.length ? '…' : '');
  const highlights: Highlight[] = [];
  for (const { start, end } of matches) {
    if (start < from || start >= to) continue;
    highlights.push({ start: prefix.length + start - from, length: Math.min(end, to) - start });
  }
  return { snippet, highlights };
}

/** `snippetOf` for any text, character by character (code points). */
export function snippetOfCodePoints(text: string, terms: string[], before = 60, after = 140) {
  const chars = [...text];
  const foldedTerms = terms.map((t) => [...t].map(foldChar));
  const wordStarts: number[] = [];
  let inWord = false;
  chars.forEach((c, i) => {
    const word = WORD.test(c);
    if (word && !inWord) wordStarts.push(i);
    inWord = word;
  });
  // Folds the text only as far as a term still matches it.
  const startsWith = (i: number, term: string[]) =>
    term.every((c, k) => i + k < chars.length && foldChar(chars[i + k]!) === c);
  const matches = wordStarts.filter((i) => foldedTerms.some((t) => startsWith(i, t)));
  const first = matches[0] ?? 0;
  const from = Math.max(0, first - before);
  const to = Math.min(chars.length, first + after);
  const prefix = from > 0 ? '…' : '';
  const snippet = prefix + chars.slice(from, to).join('') + (to < chars.length ? '…' : '');
  const highlights: Highlight[] = [];
  for (const start of matches) {
    if (start < from || start >= to) continue;
    let end = start;
    while (end < to && WORD.test(chars[end]!)) end++;
    // Offsets count UTF-16 code units, as JavaScript strings do.
    const offset = prefix.length + chars.slice(from, start).join('').length;
    highlights.push({ start: offset, length: chars.slice(start, end).join('').length });
  }
  return { snippet, highlights };
}
