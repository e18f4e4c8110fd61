/** Letters NFD does not decompose. */
const SPECIAL: Record<string, string> = {
  ß: 'ss',
  ø: 'o',
  đ: 'd',
  ł: 'l',
  ı: 'i',
  æ: 'ae',
  œ: 'oe',
  ð: 'd',
  þ: 'th',
  ħ: 'h',
  ŧ: 't',
};
// Linear whatever the table holds: one class of single letters, without a quantifier.
const SPECIAL_CHARS = new RegExp(`[${Object.keys(SPECIAL).join('')}]`, 'g');

const NOT_PRINTABLE_ASCII = /[^ -~]/;

/** Lower case without diacritics: "Español" and "espanol" fold alike. */
export function fold(text: string): string {
  if (!NOT_PRINTABLE_ASCII.test(text)) return text.toLowerCase();
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(SPECIAL_CHARS, (c) => SPECIAL[c]!);
}

/** A crude English singular, applied to both sides of every comparison, so only consistency matters. */
export function singular(word: string): string {
  if (word.length < 4 || !/[a-z]s$/.test(word) || /(ss|us|is)$/.test(word)) return word;
  if (word.length >= 5 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

/**
 * One word or number of a query. `sep` is what stood between it and the previous token: nothing (or a
 * space or hyphen), a list separator (`,` `/`) or a clause break (`.` `;` `:` `!` `?` brackets).
 */
export type Token = {
  raw: string;
  /** Where `raw` stands in the text: [from, to) in UTF-16 units. */
  from: number;
  to: number;
  norm: string;
  stem: string;
  /** The value of a plain number ("120", "2023", "99.5"); null otherwise. */
  number: number | null;
  sep: '' | ',' | '.';
};

/** Symbols that stand for a word (the raw text keeps the symbol). */
const SYMBOL_WORDS: Record<string, string> = {
  '&': 'and',
  '~': 'around',
  '<': 'under',
  '>': 'over',
  '+': 'plus',
};
const LIST_SEPARATORS = new Set([',', '/']);
const BREAKS = new Set(['.', ';', ':', '!', '?', '(', ')', '[', ']', '"', '“', '”']);
const DASHES = new Set(['-', '–', '—']);

const PIECES = /\d+\.\d+|[\p{L}\p{M}\p{N}'’ʼ]+|[^\s\p{L}\p{M}\p{N}]/gu;
const APOSTROPHES = /['’ʼ]/g;
/** "year's", "Rosalía's": the word is compared without its possessive (not "80's", a decade). */
const POSSESSIVE = /(?<=\p{L})['’ʼ]s$/u;
/** What a number keeps as part of its word: a decade's "s" ("90s") and ordinals ("20th", "1st"). */
const NUMBER_SUFFIX = /^(s|st|nd|rd|th)$/;

function token(raw: string, from: number, norm: string, sep: Token['sep']): Token {
  const number = /^\d+(\.\d+)?$/.test(norm) ? Number(norm) : null;
  return {
    raw,
    from,
    to: from + raw.length,
    norm,
    stem: number === null ? singular(norm) : norm,
    number,
    sep,
  };
}

/**
 * Splits "120bpm" into "120" and "bpm"; keeps decades ("90s", "1990s"), ordinals ("20th") and words with
 * digits ("mp3").
 */
function wordTokens(raw: string, from: number, sep: Token['sep']): Token[] {
  const norm = fold(raw).replace(POSSESSIVE, '').replace(APOSTROPHES, '');
  if (norm === '') return [];
  const split = /^(\d+)(\p{L}.*)$/u.exec(norm);
  if (!split || NUMBER_SUFFIX.test(split[2]!) || !/^\d/.test(raw)) return [token(raw, from, norm, sep)];
  const digits = split[1]!.length;
  return [
    token(raw.slice(0, digits), from, split[1]!, sep),
    ...wordTokens(raw.slice(digits), from + digits, ''),
  ];
}

/** The tokens of a text: folded words and numbers, symbols that mean a word, and separators. */
export function tokenise(text: string): Token[] {
  const pieces = [...text.matchAll(PIECES)];
  const tokens: Token[] = [];
  let sep: Token['sep'] = '';
  pieces.forEach((match, i) => {
    const piece = match[0];
    if (/[\p{L}\p{M}\p{N}]/u.test(piece)) {
      tokens.push(...wordTokens(piece, match.index, sep));
      sep = '';
    } else if (SYMBOL_WORDS[piece]) {
      tokens.push(token(piece, match.index, SYMBOL_WORDS[piece]!, sep));
      sep = '';
    } else if (DASHES.has(piece)) {
      // A dash between two numbers is a range ("90-100", "2019–2021"); elsewhere it joins words ("hip-hop").
      const before = tokens[tokens.length - 1];
      if (typeof before?.number === 'number' && /^\d/.test(pieces[i + 1]?.[0] ?? '')) {
        tokens.push(token(piece, match.index, 'to', sep));
        sep = '';
      }
    } else if (LIST_SEPARATORS.has(piece)) {
      if (sep === '') sep = ',';
    } else if (BREAKS.has(piece)) {
      sep = '.';
    }
  });
  return tokens;
}
