import type { Token } from '../normalise.ts';
import { bounds, type Hit, prefixAt, RANGE_JOINS, suffixAt } from './comparators.ts';

const DECADE_WORDS: Record<string, number> = {
  sixties: 1960,
  seventies: 1970,
  eighties: 1980,
  nineties: 1990,
  noughties: 2000,
  aughts: 2000,
};
const PARTS: Record<string, [number, number]> = { early: [0, 3], mid: [4, 6], late: [7, 9] };
const EARLIEST = 1900;
const LATEST = 2099;

/** Years [low, high] named by `length` tokens. */
type Period = { low: number; high: number; length: number; decade: boolean };

/** The decade a token names: "90s" (1990), "20s" (2020), "1980s", "nineties". */
function decadeOf(token: Token | undefined): number | null {
  if (!token) return null;
  if (DECADE_WORDS[token.norm]) return DECADE_WORDS[token.norm]!;
  const match = /^(\d{2}|\d{4})s$/.exec(token.norm);
  if (!match || Number(match[1]) % 10 !== 0) return null;
  const n = Number(match[1]);
  if (match[1]!.length === 4) return n >= EARLIEST && n <= LATEST ? n : null;
  // Two digits: the 20s and earlier are this century's, the 30s to 90s the last one's.
  return n <= 20 ? 2000 + n : 1900 + n;
}

/** "2023", "the 90s", "the early 2000s", "late nineties". */
function periodAt(tokens: readonly Token[], i: number): Period | null {
  let j = i;
  if (tokens[j]?.norm === 'the') j++;
  const part = PARTS[tokens[j]?.norm ?? ''];
  if (part) j++;
  const token = tokens[j];
  const decade = decadeOf(token);
  if (decade !== null) {
    const [from, to] = part ?? [0, 9];
    return { low: decade + from, high: decade + to, length: j + 1 - i, decade: true };
  }
  const n = token?.number;
  if (part || typeof n !== 'number' || !/^\d{4}$/.test(token!.norm) || n < EARLIEST || n > LATEST)
    return null;
  return { low: n, high: n, length: j + 1 - i, decade: false };
}

/** "this year", "last year", "the last 5 years", "the past decade". */
function relativeAt(tokens: readonly Token[], i: number, year: number): Period | null {
  const j = tokens[i]?.norm === 'the' ? i + 1 : i;
  const period = (low: number, length: number): Period => ({ low, high: year, length, decade: false });
  // By stem, so that "this year's releases" and "this years releases" read alike.
  const yearAfter = (word: string) => tokens[j]?.norm === word && tokens[j + 1]?.stem === 'year';
  if (yearAfter('this')) return period(year, j + 2 - i);
  if (yearAfter('last')) return { ...period(year - 1, j + 2 - i), high: year - 1 };
  if (!['last', 'past'].includes(tokens[j]?.norm ?? '')) return null;
  if (tokens[j + 1]?.norm === 'decade') return period(year - 9, j + 2 - i);
  const n = tokens[j + 1]?.number;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 100 && tokens[j + 2]?.stem === 'year')
    return period(year - n + 1, j + 3 - i);
  return null;
}

/**
 * A year or span of years written at `i`: "2023", "from 2023", "2019-2021", "between 2019 and 2021",
 * "before 2010", "since 2015", "2015 onwards", "90s", "the early 2000s", "after the 90s", "last year".
 * "from 2023" alone means that year ("songs from 2023"), as "in 2023" does.
 */
export function yearAt(tokens: readonly Token[], i: number, today: Date): Hit | null {
  let j = i;
  const prefix = prefixAt(tokens, j, 'year');
  if (prefix) j += prefix.length;
  const first = relativeAt(tokens, j, today.getUTCFullYear()) ?? periodAt(tokens, j);
  if (!first) return null;
  j += first.length;
  let second: Period | null = null;
  const joinable = !prefix || prefix.comparison === 'between' || prefix.comparison === 'from';
  if (joinable && RANGE_JOINS.has(tokens[j]?.norm ?? '')) {
    second = periodAt(tokens, j + 1);
    if (second) j += 1 + second.length;
  }
  if (prefix?.comparison === 'between' && !second) return null;
  // "from 2022 onwards": the suffix turns "from" into a lower bound; other prefixes already say it all.
  const suffixAllowed = !second && (!prefix || prefix.comparison === 'from');
  const suffix = suffixAllowed ? suffixAt(tokens, j, 'year') : null;
  if (suffix) j += suffix.length;
  const low = Math.min(first.low, second?.low ?? first.low);
  const high = Math.max(first.high, second?.high ?? first.high);
  const comparison = second ? 'between' : (suffix?.comparison ?? prefix?.comparison ?? 'exact');
  return { range: bounds(comparison, low, high, first.decade ? 0 : 1), start: i, end: j };
}
