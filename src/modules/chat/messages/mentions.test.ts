import { describe, expect, it } from 'vitest';
import { MAX_MENTIONS, parseMentions } from './mentions.ts';

const USER = '0190A6E0-1234-7000-8000-00000000ABCD';

describe('mentions in message text', () => {
  it('reads @[label](kind:id) in order, each target once, user ids in lower case', () => {
    expect(
      parseMentions(
        `hi @[Maya](user:${USER}) and @[Song](track:12), @[Maya again](user:${USER.toLowerCase()})`,
      ),
    ).toEqual([
      { kind: 'user', targetId: USER.toLowerCase(), label: 'Maya', position: 0 },
      { kind: 'track', targetId: '12', label: 'Song', position: 1 },
    ]);
  });

  it('leaves targets of the wrong shape as text', () => {
    const text = [
      '@[a](user:12)',
      `@[b](track:${USER})`,
      '@[c](track:0)',
      '@[d](album:2147483648)',
      '@[e](team:1)',
      '@[](track:1)',
      '@[line\nbreak](track:1)',
      '[f](track:1)',
    ].join(' ');
    expect(parseMentions(text)).toEqual([]);
    expect(parseMentions('@[max](contact:2147483647)')).toHaveLength(1);
  });

  it('keeps at most MAX_MENTIONS and reads long hostile text quickly', () => {
    const many = Array.from({ length: MAX_MENTIONS + 10 }, (_, i) => `@[t${i}](track:${i + 1})`).join(' ');
    expect(parseMentions(many)).toHaveLength(MAX_MENTIONS);
    const started = performance.now();
    parseMentions(`@[${'x'.repeat(5_000)}`.repeat(2));
    parseMentions('@['.repeat(5_000));
    expect(performance.now() - started).toBeLessThan(200);
  });
});
