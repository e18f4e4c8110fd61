import { describe, expect, it } from 'vitest';
import { lookAlikeQuery, lookAlikeVocabulary } from './fixtures/look-alike-vocabulary.ts';
import type { SearchKind, Vocabulary } from './kinds.ts';
import { type ParseContext, parseQuery } from './parser.ts';
import { boundedValues } from './vocabulary-limits.ts';

const TODAY = new Date('2026-06-01T12:00:00Z');

const read = (kind: SearchKind, query: string, vocabulary: Vocabulary, extra: Partial<ParseContext> = {}) =>
  parseQuery({ kind, query, vocabulary, statuses: [], today: TODAY, ...extra });

/** The milliseconds a call takes. */
function timed<T>(work: () => T): [T, number] {
  const started = performance.now();
  const result = work();
  return [result, performance.now() - started];
}

describe('the cost of reading a query', () => {
  // A hard safety budget, far above what the parser needs and far below the seconds such a vocabulary
  // took when every span was compared with every look-alike phrase in full.
  it.each(['tracks', 'albums'] as const)(
    'reads a long query against a full vocabulary of look-alike phrases in well under a second (%s)',
    (kind) => {
      const vocabulary = lookAlikeVocabulary(kind);
      vocabulary.genres = ['Reggaeton', ...vocabulary.genres!];
      const [answer, elapsed] = timed(() => read(kind, lookAlikeQuery('reggaeton'), vocabulary));
      expect(elapsed).toBeLessThan(1000);
      expect(answer.filters.genres!.include).toContain('Reggaeton');
    },
  );

  it('stops typo matching when the budget runs out, and lists the words it left unread', () => {
    const vocabulary = { genres: ['Deep House', 'Techno'] };
    expect(read('tracks', 'deep hosue techno', vocabulary).filters.genres!.include).toEqual([
      'Deep House',
      'Techno',
    ]);
    const answer = read('tracks', 'deep hosue techno', vocabulary, {
      limits: { comparisons: 0, milliseconds: 1000 },
    });
    // Exact readings are lookups and still count; the typo is left as text, and said to be unread.
    expect(answer.filters.genres!.include).toEqual(['Techno']);
    expect(answer.filters.text.include).toEqual(['deep', 'hosue']);
    const reason = 'not compared with the vocabulary for typos: the query used up its matching budget';
    expect(answer.ignored).toEqual([
      { words: ['deep'], reason },
      { words: ['hosue'], reason },
    ]);
  });

  it('stops typo matching at the deadline', () => {
    const answer = read(
      'tracks',
      'deep hosue',
      { genres: ['Deep House'] },
      {
        limits: { comparisons: 1000, milliseconds: -1 },
      },
    );
    expect(answer.filters.genres!.include).toEqual([]);
    expect(answer.ignored.map((i) => i.words)).toEqual([['deep'], ['hosue']]);
  });
});

describe('boundedValues', () => {
  it('keeps a list within the limits as sent', () => {
    const values = ['Jazz', 'jazz', 'Rock'];
    expect(boundedValues(values, { phrases: 3, characters: 12 })).toBe(values);
  });

  it('past the limits keeps the values sent most often, then the shortest, then the first, in the order sent', () => {
    const values = ['Drum & Bass', 'Rock', 'Jazz', 'drum & bass', 'Pop', 'Ambient', 'Rock'];
    expect(boundedValues(values, { phrases: 3, characters: 1000 })).toEqual([
      'Drum & Bass',
      'Rock',
      'drum & bass',
    ]);
    expect(boundedValues(values, { phrases: 100, characters: 20 })).toEqual(['Drum & Bass', 'Rock', 'Pop']);
  });

  it('reads at most the limits of a full look-alike list, the same way every time', () => {
    const values = lookAlikeVocabulary('tracks').genres!;
    const kept = boundedValues(values);
    expect(kept.length).toBeLessThan(values.length);
    expect(kept.join('').length).toBeLessThanOrEqual(30_000);
    expect(boundedValues([...values])).toEqual(kept);
  });
});
