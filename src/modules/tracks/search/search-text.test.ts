import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prefixQuery, searchTerms, snippetOf, snippetOfCodePoints } from './search-text.ts';

describe('search text helpers', () => {
  it('splits a query into words and builds a prefix query', () => {
    expect(searchTerms("  Café, l'amour!  ")).toEqual(['Café', 'l', 'amour']);
    expect(prefixQuery(['caf', 'amo'])).toBe('caf:* & amo:*');
    expect(searchTerms('a b c d e f g h i j k l', 3)).toEqual(['a', 'b', 'c']);
    expect(searchTerms(' :* & | ! ')).toEqual([]);
  });

  it('highlights words starting with a term, ignoring case and accents', () => {
    const { snippet, highlights } = snippetOf('Le CAFÉ de Noël, un café noir', ['cafe', 'noel']);
    expect(snippet).toBe('Le CAFÉ de Noël, un café noir');
    expect(highlights.map((h) => snippet.slice(h.start, h.start + h.length))).toEqual([
      'CAFÉ',
      'Noël',
      'café',
    ]);
  });

  it('cuts a window around the first match', () => {
    const text = `${'word '.repeat(40)}target here${' tail'.repeat(60)}`;
    const { snippet, highlights } = snippetOf(text, ['targ'], 10, 20);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(highlights).toHaveLength(1);
    expect(snippet.slice(highlights[0]!.start, highlights[0]!.start + highlights[0]!.length)).toBe('target');
  });
});

describe('snippets of texts without surrogate pairs', () => {
  // Letters with and without accents (composed and combining), digits, spaces and punctuation.
  const character = fc.constantFrom(..."aAeéÉe\u0301oöØßæcçnñ1 ,.-'’".split(''));

  /** Holds `snippetOf` equal to the character-by-character version over generated texts and terms. */
  const assertSameAsCodePoints = (text: fc.Arbitrary<string>, terms: fc.Arbitrary<string[]>) =>
    fc.assert(
      fc.property(text, terms, fc.nat(80), fc.nat(160), (text, terms, before, after) => {
        expect(snippetOf(text, terms, before, after)).toEqual(
          snippetOfCodePoints(text, terms, before, after),
        );
      }),
      { numRuns: 2000 },
    );

  it('are the snippets read character by character', () => {
    assertSameAsCodePoints(
      fc.array(character, { maxLength: 400 }).map((cs) => cs.join('')),
      fc.array(fc.constantFrom('e', 'ae', 'oo', 'ss', 'n1', 'ce', 'o'), { minLength: 1, maxLength: 3 }),
    );
  });

  it('of ASCII texts are the snippets read character by character, whatever the terms hold', () => {
    assertSameAsCodePoints(
      fc.array(fc.constantFrom(..."aAbBsS09 ,.-'\n".split('')), { maxLength: 300 }).map((cs) => cs.join('')),
      fc.array(fc.constantFrom('a', 'ab', 'B', 'ss', 'ß', 'é', 'Æb', '9', '中'), {
        minLength: 1,
        maxLength: 3,
      }),
    );
  });

  it('and texts with them still count characters for the window', () => {
    const text = `${'𝄞'.repeat(30)} café ${'𝄞'.repeat(30)}`;
    const { snippet, highlights } = snippetOf(text, ['cafe'], 5, 10);
    expect(snippet).toBe(`…${'𝄞'.repeat(4)} café ${'𝄞'.repeat(5)}…`);
    expect(snippet.slice(highlights[0]!.start, highlights[0]!.start + highlights[0]!.length)).toBe('café');
  });
});
