import { describe, expect, it } from 'vitest';
import { firstSlow, slowOn } from '../../../../test/helpers/linear-time.ts';
import { COMMAND_PATTERNS, MAX_PARSED_CHARS, parseCommand } from './follow-up-parser.ts';

// Thursday 26 November 2026, 23:30 UTC: Friday 00:30 in Berlin, Thursday 15:30 in Los Angeles.
const NOW = new Date('2026-11-26T23:30:00Z');

const dueOf = (text: string, timeZone: string) => {
  const command = parseCommand(text, NOW, timeZone);
  if (command.kind !== 'create') throw new Error(`not a reminder: ${command.kind}`);
  return command.dueAt?.toISOString() ?? null;
};

describe('the assistant’s reading of messages', () => {
  it('reads the person, the network and the note of a reminder', () => {
    expect(
      parseCommand('remind me to follow up with Maya on Instagram next Friday', NOW, 'UTC'),
    ).toMatchObject({
      kind: 'create',
      person: 'Maya',
      network: 'instagram',
      note: 'remind me to follow up with Maya on Instagram next Friday',
    });
    expect(parseCommand('remind me to call Jo Smith tomorrow at 3pm', NOW, 'UTC')).toMatchObject({
      person: 'Jo Smith',
      network: null,
    });
    expect(parseCommand('follow up with @maya.music via TikTok', NOW, 'UTC')).toMatchObject({
      person: '@maya.music',
      network: 'tiktok',
      dueAt: null,
    });
  });

  it('reads dates forward in the user’s zone, a bare day at 09:00 there', () => {
    expect(dueOf('follow up with Maya next Friday', 'Europe/Berlin')).toBe('2026-12-04T08:00:00.000Z');
    expect(dueOf('follow up with Maya next Friday', 'America/Los_Angeles')).toBe('2026-12-04T17:00:00.000Z');
    // Near midnight the same words name different days.
    expect(dueOf('follow up with Maya tomorrow', 'Europe/Berlin')).toBe('2026-11-28T08:00:00.000Z');
    expect(dueOf('follow up with Maya tomorrow', 'America/Los_Angeles')).toBe('2026-11-27T17:00:00.000Z');
    expect(dueOf('remind me to call Jo tomorrow at 3pm', 'Europe/Berlin')).toBe('2026-11-28T14:00:00.000Z');
    expect(dueOf('remind me to call Jo tomorrow at 3pm', 'America/Los_Angeles')).toBe(
      '2026-11-27T23:00:00.000Z',
    );
    expect(dueOf('follow up with Maya', 'UTC')).toBeNull();
  });

  it('knows lists, done and everything else', () => {
    expect(parseCommand('list my follow-ups', NOW, 'UTC')).toEqual({ kind: 'list' });
    expect(parseCommand('What’s due?', NOW, 'UTC')).toEqual({ kind: 'list' });
    expect(parseCommand('done with Maya', NOW, 'UTC')).toEqual({ kind: 'done', person: 'Maya' });
    expect(parseCommand('hello', NOW, 'UTC')).toEqual({ kind: 'help' });
    expect(parseCommand('remind me', NOW, 'UTC')).toEqual({ kind: 'help' });
    expect(parseCommand('\u0000'.repeat(50), NOW, 'Not/AZone')).toEqual({ kind: 'help' });
  });
});

/** The "done" pattern before it was made linear: cubic over a run of spaces that a line break ends. */
const CUBIC_DONE =
  "^\\s*(?:i(?:'|’)?m\\s+|i am\\s+)?(?:done|finished|completed?)\\s+(?:with\\s+)?(?:the\\s+follow[- ]?up\\s+(?:with|for)\\s+)?(.+?)[\\s.!]*$";
/** Message contents up to their largest size (10,000 characters), smallest first. */
const SIZES = [1_000, 10_000];

/** Texts of `size` characters made of `piece` repeated, each with the endings that force a mismatch. */
function repeats(prefix: string, piece: string, size: number): string[] {
  const body = prefix + piece.repeat(Math.ceil((size - prefix.length) / piece.length));
  return ['', '\nx\ny', '!', '.', 'x', '\u0000'].map(
    (ending) => body.slice(0, size - ending.length) + ending,
  );
}

const read = (text: string) => parseCommand(text, NOW, 'Europe/Berlin');

describe('the assistant’s reading of long and adversarial messages', () => {
  it('reads the start of a long message and no more', () => {
    const pad = ' '.repeat(MAX_PARSED_CHARS);
    expect(read(`done with Maya${pad}and more`)).toEqual({ kind: 'done', person: 'Maya' });
    expect(read(`${pad}done with Maya`)).toEqual({ kind: 'done', person: 'Maya' });
    expect(read(`hello${pad}list my follow-ups`)).toEqual({ kind: 'help' });
    expect(read(`done with Maya\nand Jo`)).toEqual({ kind: 'help' });
    expect(read('I’m finished with the follow-up for Jo Smith!!')).toEqual({
      kind: 'done',
      person: 'Jo Smith',
    });
    expect(read(' tasks ? ')).toEqual({ kind: 'list' });
    expect(read('show me\nmy tasks')).toEqual({ kind: 'help' });
    const long = read(`remind me to call Jo tomorrow at 3pm ${'x'.repeat(2_000)}`);
    expect(long).toMatchObject({ kind: 'create', person: 'Jo', dueAt: new Date('2026-11-28T14:00:00Z') });
    expect(long.kind === 'create' && long.note.length).toBe(1_000);
  });

  it('finds the old "done" pattern slow (the check can fail)', async () => {
    const cubic = new RegExp(CUBIC_DONE, 'i');
    expect(slowOn((text) => cubic.test(text), `done${' '.repeat(1_000)}\nx\ny`)).toBeDefined();
  });

  it('reads adversarial messages up to 10,000 characters in linear time (under 50 ms or 20 linear scans)', async () => {
    const slow = [];
    for (const pattern of [CUBIC_DONE, ...COMMAND_PATTERNS.map((p) => p.source)]) {
      const found = await firstSlow(pattern, read, SIZES);
      if (found) slow.push(found);
    }
    const shapes: [prefix: string, piece: string][] = [
      ['done', ' '],
      ['done with ', ' '],
      ['I am done ', '\t'],
      ['', '\n'],
      ['done ', '.!'],
      ['', 'list '],
      ['list', ' x'],
      ['remind me to call ', 'Jo '],
      ['follow up with', ' '],
      ['', 'with '],
      ['remind me ', 'on '],
      ['', 'Friday 3pm '],
      ['remind me to ping Maya ', '.,;:'],
    ];
    // Smallest size first, and no larger size once one is slow: a super-linear reading fails in seconds.
    sizes: for (const size of SIZES)
      for (const [prefix, piece] of shapes)
        for (const text of repeats(prefix, piece, size)) {
          const found = slowOn(read, text);
          if (!found) continue;
          slow.push({ input: `${JSON.stringify(prefix)} + ${JSON.stringify(piece)}…`, size, ...found });
          break sizes;
        }
    expect(slow).toEqual([]);
  }, 120_000);
});
